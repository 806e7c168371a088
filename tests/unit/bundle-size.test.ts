/**
 * The size check `npm test` runs (tools/bundle-size.ts) can fail: a bundle over its budget is reported so. It counts
 * the common path, and what only some lookups need is in chunks apart.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bundleWeights, checkBudgets } from "../../tools/bundle-size.ts";

describe("npm run size", () => {
  it("fails a bundle over its gzip budget, passes one under it", async () => {
    const checks = await checkBudgets({ evaluate: { gzipKiB: 1 }, client: { gzipKiB: 1000 } });
    assert.deepEqual(
      checks.map(({ bundle, over }) => [bundle, over]),
      [
        ["evaluate", true],
        ["client", false],
      ],
    );
    const evaluate = checks[0]!;
    assert.ok(evaluate.gzipKiB > 1 && evaluate.minifiedKiB > evaluate.gzipKiB, JSON.stringify(evaluate));
  });

  it("leaves out of the client's common path what a v0.4 lookup does not load", async () => {
    const { lazy } = await bundleWeights("client");
    assert.deepEqual(
      lazy
        .map((chunk) => chunk.loads)
        .filter((loads) => loads !== undefined)
        .sort(),
      [
        "core/client/discovered-peers.ts",
        "core/client/federation.ts",
        "core/client/latest-logged.ts",
        "core/client/offline-proof.ts",
        "core/client/status-list-resolution.ts",
        "core/crypto/pure-crypto.ts",
        "core/validate/legacy-v03.ts",
      ],
    );
  });

  it("keeps the log's proof out of the lookup page's common path: the page loads it only with a log key", async () => {
    const { lazy } = await bundleWeights("lookup");
    const lazyModules = lazy.map((chunk) => chunk.loads);
    assert.ok(lazyModules.includes("core/client/latest-logged.ts"), JSON.stringify(lazyModules));
    assert.ok(lazyModules.includes("core/crypto/pure-crypto.ts"), JSON.stringify(lazyModules));
  });
});
