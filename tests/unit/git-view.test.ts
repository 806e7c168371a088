/**
 * git's view of a content folder (scripts/read/git-view.ts) outside a working tree: none, and a listing that
 * failed meanwhile is left for the caller to report, never an unhandled rejection that ends the process.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { gitView } from "../../scripts/read/git-view.ts";

const outside = mkdtempSync(join(tmpdir(), "um-no-git-"));
after(() => rmSync(outside, { recursive: true, force: true }));

it("outside a working tree there is no view, even when the listing it waits for fails", async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    assert.equal(await gitView(outside, Promise.reject(new Error("listing failed"))), undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", record);
  }
});
