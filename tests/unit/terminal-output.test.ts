/** What a person at a terminal sees besides the problem lines: style, code frames, fix hints, progress. */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { codeFrame } from "../../scripts/report/code-frame.ts";
import type { RuleId } from "../../core/rules/index.ts";
import type { Diagnostic } from "../../scripts/report/diagnostics.ts";
import { fixHint, shellWord } from "../../scripts/report/fix-hints.ts";
import { annotations } from "../../scripts/report/github.ts";
import { Progress } from "../../scripts/report/progress.ts";
import { terminalStyle } from "../../scripts/report/terminal-style.ts";

describe("terminal style", () => {
  it(
    "frames and colour on a TTY; NO_COLOR and FORCE_COLOR=0 drop the colour; FORCE_COLOR forces both, " +
      "even over NO_COLOR; a pipe gets neither",
    () => {
      const tty = { isTTY: true };
      const pipe = { isTTY: false };
      assert.deepEqual(terminalStyle(tty, {}), { frame: true, colour: true });
      assert.deepEqual(terminalStyle(tty, { NO_COLOR: "1" }), { frame: true, colour: false });
      assert.deepEqual(terminalStyle(tty, { NO_COLOR: "" }), { frame: true, colour: true });
      assert.deepEqual(terminalStyle(pipe, {}), { frame: false, colour: false });
      assert.deepEqual(terminalStyle(pipe, { FORCE_COLOR: "1", NO_COLOR: "1" }), { frame: true, colour: true });
      assert.deepEqual(terminalStyle(pipe, { FORCE_COLOR: "0" }), { frame: false, colour: false });
      // FORCE_COLOR=0 (or false) asks for no colour, as NO_COLOR does, even on a terminal.
      assert.deepEqual(terminalStyle(tty, { FORCE_COLOR: "0" }), { frame: true, colour: false });
      assert.deepEqual(terminalStyle(tty, { FORCE_COLOR: "false" }), { frame: true, colour: false });
      // A CI runner that attaches a terminal still writes a log.
      assert.deepEqual(terminalStyle(tty, { CI: "true" }), { frame: false, colour: false });
      assert.deepEqual(terminalStyle(tty, { CI: "true", FORCE_COLOR: "1" }), { frame: true, colour: true });
    },
  );
});

describe("code frame", () => {
  it("shows the line and a caret under the column, counting escaped characters", () => {
    assert.deepEqual(codeFrame('{\n\t"a": 1,\n}', 2, 7), [' 2 | \\t"a": 1,', "   |        ^"]);
  });
  it("shows a window of a long line around the column", () => {
    const line = `${"x".repeat(1000)}Y${"z".repeat(1000)}`;
    const [source, caret] = codeFrame(line, 1, 1001);
    assert.ok(source!.length < 200);
    assert.equal(source![caret!.indexOf("^")], "Y");
  });
  it("shows nothing for a line the text does not have", () => assert.deepEqual(codeFrame("{}", 3, 1), []));
});

describe("fix hints", () => {
  const problem = (rule: RuleId): Diagnostic => ({
    severity: "error",
    file: "content/my file.json",
    rule,
    message: "m",
  });
  const text = JSON.stringify({
    signature: { keyRef: "did:web:me.example#key-1", publicKeySpkiB64: "MCowBQYDK2VwAyEA" },
  });
  it("an unpinned key: the _keys.json entry that pins it, if it is yours", () => {
    assert.equal(
      fixHint(problem("signature/unpinned-key"), text),
      'if "did:web:me.example#key-1" is your key, pin it: add ' +
        '"did:web:me.example#key-1": "MCowBQYDK2VwAyEA" to _keys.json',
    );
  });
  it("an invalid signature: the sign command line, quoted for a shell", () => {
    assert.equal(
      fixHint(problem("signature/invalid"), text),
      "if you edited it, sign it again: manifest-resolver sign 'content/my file.json' " +
        "--key <your key> --key-ref did:web:me.example#key-1",
    );
    assert.equal(
      fixHint(problem("signature/invalid"), "{not json"),
      "if you edited it, sign it again: manifest-resolver sign 'content/my file.json' " +
        "--key <your key> --key-ref KEYREF",
    );
  });
  it("none for other rules", () => assert.equal(fixHint(problem("schema/required"), text), undefined));
  it("shell words: as they are when safe, single-quoted otherwise", () => {
    assert.equal(shellWord("did:web:x#k"), "did:web:x#k");
    assert.equal(shellWord("#k"), "'#k'");
    assert.equal(shellWord("-rf"), "'-rf'");
    assert.equal(shellWord("it's $HOME"), "'it'\\''s $HOME'");
  });
});

describe("GitHub annotations", () => {
  it("10 per severity, then one notice with the rest by rule", () => {
    const of = (severity: "error" | "warning", rule: RuleId, n: number): Diagnostic[] =>
      Array.from({ length: n }, (_, i) => ({ severity, file: `f${i}.json`, rule, message: "m" }));
    const lines = annotations([
      ...of("error", "json/syntax", 12),
      ...of("warning", "time/expired", 11),
      ...of("error", "schema/type", 1),
    ]);
    assert.equal(lines.filter((l) => l.startsWith("::error ")).length, 10);
    assert.equal(lines.filter((l) => l.startsWith("::warning ")).length, 10);
    assert.equal(
      lines.at(-1),
      "::notice title=4 more problems::4 more problems not annotated (GitHub shows 10 " +
        "errors and 10 warnings per step): json/syntax ×2, schema/type ×1, time/expired " +
        "×1; 'manifest-resolver check --max-problems 0' prints them all",
    );
    assert.equal(annotations(of("error", "json/syntax", 10)).length, 10, "no notice when nothing was left out");
  });
});

describe("progress line", () => {
  const stream = (isTTY: boolean) => ({
    isTTY,
    columns: 80,
    written: [] as string[],
    write(text: string) {
      this.written.push(text);
    },
  });
  it("on a terminal, after the delay: rewritten in place with \\r, and cleared at the end", async () => {
    const tty = stream(true);
    const progress = new Progress(tty, "checking", 20);
    progress.update(5, 10);
    assert.deepEqual(tty.written, [], "nothing before the delay");
    await sleep(60);
    progress.stop();
    assert.match(tty.written[0]!, /^\rchecking: 5 of 10 manifests \(50%\), \d+ ms\x1b\[K$/);
    assert.equal(tty.written.at(-1), "\r\x1b[K");
  });
  it("cut to the terminal's width, or 80 columns when the terminal reports none", async () => {
    for (const [columns, length] of [
      [20, 19],
      [0, 79],
    ] as const) {
      const tty = { ...stream(true), columns };
      const progress = new Progress(tty, "checking".repeat(10), 1);
      await sleep(30);
      progress.stop();
      assert.equal(tty.written[0]!.replace(/^\r|\x1b\[K$/g, "").length, length, String(columns));
    }
  });
  it("drawn by updates too, for a check on the main thread that never lets a timer run", () => {
    const tty = stream(true);
    const progress = new Progress(tty, "checking", 20);
    const busyUntil = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    progress.update(1, 10);
    busyUntil(30);
    progress.update(2, 10);
    progress.update(3, 10);
    assert.equal(tty.written.length, 1, "once past the delay, and not again within 100 ms");
    assert.match(tty.written[0]!, /^\rchecking: 2 of 10 manifests \(20%\)/);
    progress.stop();
  });
  it("none for a run shorter than the delay, and none outside a terminal", async () => {
    const quick = stream(true);
    new Progress(quick, "checking", 50).stop();
    const pipe = stream(false);
    const piped = new Progress(pipe, "checking", 1);
    await sleep(60);
    piped.stop();
    assert.deepEqual([quick.written, pipe.written], [[], []]);
  });
});
