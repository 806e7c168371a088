/** The size check `npm test` runs (tools/bundle-size.ts) can fail: a library over its budget is reported so. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkBudgets } from "../../tools/bundle-size.ts";

test("a library over its gzip budget fails the check, one under it passes", async () => {
  const checks = await checkBudgets({ evaluate: { gzipKiB: 1 }, client: { gzipKiB: 1000 } });
  assert.deepEqual(
    checks.map(({ library, over }) => [library, over]),
    [
      ["evaluate", true],
      ["client", false],
    ],
  );
  const evaluate = checks[0]!;
  assert.ok(evaluate.gzipKiB > 1 && evaluate.minifiedKiB > evaluate.gzipKiB, JSON.stringify(evaluate));
});
