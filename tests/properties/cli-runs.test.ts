/**
 * The CLI as a publisher and a monitor run it, over content and a served log with one file damaged (issue 37, defect
 * 10): `check --json` and `monitor --json` exit 0 or 1, print only JSON whose problems name registry rules, and never
 * a stack trace. Each input is a process (about a second), so these runs are few; the readers under them are
 * exercised by the thousand in this folder's other files.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { utf8 } from "../../core/base64url.ts";
import { isRuleId } from "../../core/rules/index.ts";
import { LOG_ORIGIN, logScratch } from "../support/log-content.ts";
import { publishedLogFiles, serveLogFiles } from "../support/log-server.ts";
import { documentText, excerpt, holds, mutatedBytes } from "../support/properties.ts";
import { signedLog } from "../support/signed-log.ts";

const scratch = logScratch("um-property-runs-");
after(() => rmSync(scratch.dir, { recursive: true, force: true }));
/** The content folder's files, by path there, as `log` left them. */
const files = new Map<string, Buffer>();
let content = "";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

before(async () => {
  content = scratch.content("site");
  for (const i of [1, 2, 3]) scratch.publish(content, `m${i}.json`, `urn:property:${i}`);
  writeFileSync(
    join(content, "_routes.json"),
    JSON.stringify({ revoked: [{ umid: "urn:property:gone", revokedAt: "2026-01-01T00:00:00Z" }] }),
  );
  assert.equal((await scratch.cli("log", "--key", scratch.logKey, "--content", content)).status, 0);
  for (const path of filesUnder(content)) files.set(relative(content, path), readFileSync(path));
});

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** That a run's output is what its --json promises: JSON lines, problems by rule, no stack trace. */
function assertStructured({ status, stdout, stderr }: { status: number | null; stdout: string; stderr: string }) {
  assert.ok(status === 0 || status === 1, `exit ${status}: ${stderr}`);
  assert.doesNotMatch(stderr, STACK_LINE);
  const lines = stdout.split("\n").filter((line) => line !== "");
  assert.ok(lines.length > 0, "no JSON printed");
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A file of the content damaged: JSON as a document, anything else as bytes. */
const damagedFile = fc
  .constantFrom(
    ...[
      "m1.json",
      "_keys.json",
      "_routes.json",
      "_log/checkpoint",
      "_log/verifier",
      "_log/tile/entries/000.p/4",
      "_log/tile/0/000.p/4",
    ],
  )
  .chain((path) => {
    const original = () => files.get(path)!;
    const text = fc
      .constant(path)
      .chain(() =>
        path.endsWith(".json") ? documentText(JSON.parse(original().toString())).map(utf8) : mutatedBytes(original()),
      );
    return text.map((bytes) => [path, bytes] as const);
  });

describe("properties: the CLI over damaged content and a damaged log", () => {
  it("check --json answers with rules", async () => {
    const check = () => scratch.cli("check", "--json", "--content", content);
    for (const line of assertStructured(await check())) assert.equal(line.ok, true, JSON.stringify(line));
    await holds(
      "check --json",
      fc.asyncProperty(damagedFile, async ([path, bytes]) => {
        writeFileSync(join(content, path), bytes);
        try {
          for (const line of assertStructured(await check()))
            for (const problem of [...(line.errors as { rule: unknown }[]), ...(line.warnings as { rule: unknown }[])])
              assert.ok(isRuleId(problem.rule), `${path}: ${excerpt(bytes)}: ${problem.rule}`);
        } finally {
          writeFileSync(join(content, path), files.get(path)!);
        }
      }),
      4,
    );
  });

  it("monitor --json answers with a rule, or null when the log is not at fault", async () => {
    const served = await publishedLogFiles(join(content, "_log"));
    const server = await serveLogFiles(new Map(served));
    after(() => server.stop());
    const verifier = join(content, "_log", "verifier");
    const monitor = () => scratch.cli("monitor", server.url, "--log-key", verifier, "--json");
    assert.equal(assertStructured(await monitor())[0]!.ok, true);
    const damaged = fc
      .constantFrom(...served.keys())
      .chain((path) => mutatedBytes(served.get(path)!).map((bytes) => [path, bytes] as const));
    await holds(
      "monitor --json",
      fc.asyncProperty(damaged, async ([path, bytes]) => {
        server.files = new Map([...served, [path, bytes]]);
        const [result, ...more] = assertStructured(await monitor());
        assert.deepEqual(more, []);
        assert.ok(result!.ok === true || result!.rule === null || isRuleId(result!.rule), `${path}: ${excerpt(bytes)}`);
      }),
      3,
    );
  });

  it("a signed log holding an entry whose UMID is a lone surrogate fails check and monitor with a rule", async () => {
    // Its latest map names no UMID: JCS cannot spell this one, so `log` never makes such a map, but a key holder can.
    const lone = await signedLog([utf8('{"state":"revoked","umid":"\\ud800"}')], [], await scratch.logSigner());
    assert.equal((await scratch.logSigner()).name, LOG_ORIGIN);
    const folder = scratch.content("lone");
    for (const [path, bytes] of lone.files) {
      if (path.startsWith("latest/")) continue;
      mkdirSync(dirname(join(folder, "_log", path)), { recursive: true });
      writeFileSync(join(folder, "_log", path), bytes);
    }
    writeFileSync(join(folder, "_log", "verifier"), `${lone.verifier}\n`);
    const checked = assertStructured(await scratch.cli("check", "--json", "--content", folder));
    assert.ok(checked.some((line) => line.ok === false));
    const server = await serveLogFiles(lone.files);
    try {
      const [monitored] = assertStructured(
        await scratch.cli("monitor", server.url, "--log-key", join(folder, "_log", "verifier"), "--json"),
      );
      assert.ok(monitored!.ok === false && isRuleId(monitored!.rule));
    } finally {
      await server.stop();
    }
  });
});
