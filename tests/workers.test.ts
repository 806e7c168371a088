/**
 * A content directory large enough to be checked on worker threads (WORKER_THRESHOLD):
 * problems are reported as on the main thread, in file order, across batches; and a build
 * on workers is byte-identical to one on the main thread alone.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, it } from "node:test";
import { WORKER_THRESHOLD } from "../scripts/check/manifest-pool.ts";
import { caseTwins, manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { readRecords } from "./support/index.ts";
import { fileDigests } from "./support/file-tree.ts";
import { CLI } from "./support/paths.ts";
import { assertLineNames, printedProblems } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-workers-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const content = join(scratch, "content");
mkdirSync(content);
const key = newKey();
writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
const count = WORKER_THRESHOLD + 100;
const [twinA, twinB] = caseTwins();
const umidAt = (i: number) =>
  i === 5 ? twinA : i === count - 5 ? twinB : i === 1050 ? "urn:many:600" : `urn:many:${i}`;
const file = (i: number) => join(content, `m${String(i).padStart(4, "0")}.json`);
for (let i = 0; i < count; i++) {
  const manifest = signed(manifestFor(umidAt(i)), key);
  writeFileSync(
    file(i),
    JSON.stringify(i === 900 ? { ...manifest, subject: "did:web:tampered.example" } : manifest, null, 2),
  );
}

function build(out: string, env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    [CLI, "build", "--content", content, "--out", join(scratch, out), "--lookup-out", join(scratch, `${out}-lookup`)],
    {
      encoding: "utf8",
      env: { ...process.env, ...env },
    },
  );
}

describe(`${count} manifests, on worker threads`, () => {
  it("reports every problem, in file order, as the main thread would", () => {
    const threaded = build("bad", { UM_WORKERS: "2" });
    const alone = build("bad", { UM_WORKERS: "0" });
    assert.equal(threaded.status, 1);
    assert.equal(threaded.stdout, alone.stdout);
    const lines = threaded.stdout.trim().split("\n");
    assert.equal(lines.length, 5, threaded.stdout);
    const [tampered, duplicate, ...more] = printedProblems(threaded.stdout);
    assert.deepEqual(more, []);
    assert.deepEqual(
      [basename(tampered!.file), tampered!.severity, tampered!.rule],
      ["m0900.json", "error", "signature/invalid"],
    );
    // Under it, the hint that gives the command to sign it again.
    assert.ok(lines[1]!.startsWith("  hint: ") && lines[1]!.includes(" manifest-resolver sign "), lines[1]);
    assert.ok(lines[1]!.includes(`${tampered!.file} `), lines[1]);
    assert.deepEqual(
      [basename(duplicate!.file), duplicate!.severity, duplicate!.rule, duplicate!.line, duplicate!.column],
      ["m1050.json", "error", "umid/duplicate", 3, 10],
    );
    // The UMID, the other file that has it, at its place, and the pointer.
    assertLineNames(duplicate!.message, '"urn:many:600"', "m0600.json:3:10", "/@id");
    assert.equal(lines[3], "Errors by rule: signature/invalid ×1, umid/duplicate ×1.");
    assert.match(lines[4]!, /^Found 2 errors in 2 files\./);
  });

  it("builds the same bytes on workers as on the main thread alone", () => {
    unlinkSync(file(900));
    unlinkSync(file(1050));
    const threaded = build("good", { UM_WORKERS: "2" });
    assert.equal(threaded.status, 0, threaded.stderr);
    assert.match(threaded.stdout, new RegExp(`: ${count - 2} manifests, `));
    assert.equal(build("good-alone", { UM_WORKERS: "0" }).status, 0);
    assert.deepEqual(fileDigests(join(scratch, "good")), fileDigests(join(scratch, "good-alone")));
    const records = readRecords(join(scratch, "good"));
    assert.equal(Object.keys(records).length, count - 2);
    assert.match(
      records[twinA]!.file!,
      /^h\/[0-9a-f]{3}\/[0-9a-f]{64}$/,
      "case twins far apart are both named by digest",
    );
    assert.match(records[twinB]!.file!, /^h\/[0-9a-f]{3}\/[0-9a-f]{64}$/);
    assert.ok(
      !Object.keys(fileDigests(join(scratch, "good"))).some((f) => f.startsWith("m/") && records[twinA]!.file === f),
    );
  });
});
