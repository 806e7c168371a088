/**
 * A content folder of more files than a JavaScript call takes arguments: `check` crashed at a million manifests
 * (`RangeError: Maximum call stack size exceeded`), where one step passed every file's result to `push` as an
 * argument each. Empty files are the cheapest to check, and each is still a result and a diagnostic.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../support/processes.ts";

/** Past the ~120,000 arguments that overflow the stack of a spread call here. */
const FILES = 200_000;

const scratch = mkdtempSync(join(tmpdir(), "um-many-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("a content folder of 200,000 files", () => {
  it("is checked, every file reported", async () => {
    const content = join(scratch, "content");
    for (let folder = 0; folder < FILES / 10_000; folder++) {
      mkdirSync(join(content, String(folder)), { recursive: true });
      for (let i = 0; i < 10_000; i++) writeFileSync(join(content, String(folder), `${i}.json`), "");
    }
    const run = await runCli(["check", "content", "--max-problems", "1", "--no-verification-cache"], scratch);
    assert.equal(run.status, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /RangeError/);
    assert.match(run.stdout, /200000 (?:files|manifests)/);
  });
});
