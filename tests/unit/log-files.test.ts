/**
 * The log's served paths (issue 26, section 4; edge/log-files.ts): the C2SP tlog-tiles names, each in its one
 * spelling, and the latest map's buckets, stored in folders of at most 1,000 names; every other path is none.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { logFileAt } from "../../edge/log-files.ts";

describe("logFileAt", () => {
  it("names the checkpoint, tiles, entry bundles and buckets, and how long each may be cached", () => {
    assert.deepEqual(logFileAt("checkpoint"), { kind: "checkpoint", stored: "log/checkpoint" });
    assert.deepEqual(logFileAt("tile/0/x001/x234/067"), { kind: "tile", stored: "log/tile/0/x001/x234/067" });
    assert.deepEqual(logFileAt("tile/entries/000.p/7"), { kind: "partial-tile", stored: "log/tile/entries/000.p/7" });
    assert.deepEqual(logFileAt("tile/63/000.p/255"), { kind: "partial-tile", stored: "log/tile/63/000.p/255" });
    assert.deepEqual(logFileAt("latest/300/1"), { kind: "bucket", stored: "log/latest/300/001" });
  });

  it("stores buckets as tiles are, so that 65,536 buckets of one size are never one folder", () => {
    assert.equal(logFileAt("latest/9000000/65535")?.stored, "log/latest/9000000/x065/535");
    assert.equal(logFileAt("latest/9000000/1000")?.stored, "log/latest/9000000/x001/000");
  });

  it("is none for any other path: the verifier, other spellings, traversals, numbers past 2^53", () => {
    for (const path of [
      "",
      "verifier",
      "checkpoint/",
      "Checkpoint",
      "tile/0/000/",
      "tile/0/00",
      "tile/0/x000/001",
      "tile/01/000",
      "tile/64/000",
      "tile/0/000.p/256",
      "tile/0/000.p/0",
      "tile/0/000.p/07",
      "tile/0/../000",
      "../checkpoint",
      "tile%2F0%2F000",
      "latest/300",
      "latest/300/01",
      "latest/0300/1",
      "latest/300/-1",
      "latest/300/1e3",
      "latest/1/9007199254740993",
      "latest/x001/000",
    ])
      assert.equal(logFileAt(path), undefined, path);
  });
});
