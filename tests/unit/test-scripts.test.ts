/**
 * `npm test` is the everyday loop and `npm run test:scale` the long runs (issue 38, part 6); `.ci/run` runs both.
 * Each names its files by globs: a test file that neither takes would never run anywhere, one both take twice.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fg from "fast-glob";
import { ROOT } from "../support/paths.ts";

const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;

/** The test files a script's `node --test` command names, its globs expanded. */
function testFiles(script: string): string[] {
  const globs = scripts[script]!.split(" ").filter((word) => word.startsWith("tests/") && word.endsWith(".test.ts"));
  assert.ok(globs.length > 0, `npm run ${script} names test files`);
  return fg.sync(globs, { cwd: ROOT });
}

test("every test file runs in exactly one of npm test and npm run test:scale, and .ci/run runs both", () => {
  const everyday = testFiles("test");
  const scale = testFiles("test:scale");
  const all = fg.sync("tests/**/*.test.ts", { cwd: ROOT, ignore: ["**/node_modules/**"] });
  assert.deepEqual([...everyday, ...scale].sort(), all.sort());
  assert.ok(scale.includes("tests/scale/many-files.test.ts"), "the 200,000-file run is a scale test");
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
  assert.match(ci, /^npm test$/m);
  assert.match(ci, /^npm run test:scale$/m);
});
