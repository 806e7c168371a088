/**
 * Where the build stores each file the log serves (issue 26, section 4; scripts/log/log-output.ts) and how it is
 * served: the C2SP tlog-tiles names, and the latest map's buckets, stored in folders of at most 1,000 names. The
 * edge serves exactly the paths the route table has rows for (tests/contract/cases.ts: every other is a 404).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LOG_BUCKET, LOG_CHECKPOINT, LOG_PARTIAL_TILE, LOG_TILE } from "../../core/served-kinds.ts";
import { storedLogFile } from "../../scripts/log/log-output.ts";

describe("storedLogFile", () => {
  it("names the checkpoint, tiles, entry bundles and buckets, and how long each may be cached", () => {
    // Stored under its digest: its bytes change under one path (plan/routes.ts).
    assert.deepEqual(storedLogFile("checkpoint"), { served: LOG_CHECKPOINT });
    assert.deepEqual(storedLogFile("tile/0/x001/x234/067"), { stored: "log/tile/0/x001/x234/067", served: LOG_TILE });
    assert.deepEqual(storedLogFile("tile/entries/000.p/7"), {
      stored: "log/tile/entries/000.p/7",
      served: LOG_PARTIAL_TILE,
    });
    assert.deepEqual(storedLogFile("tile/63/000.p/255"), { stored: "log/tile/63/000.p/255", served: LOG_PARTIAL_TILE });
    assert.deepEqual(storedLogFile("latest/300/1"), { stored: "log/latest/300/001", served: LOG_BUCKET });
  });

  it("stores buckets as tiles are, so that 65,536 buckets of one size are never one folder", () => {
    assert.equal(storedLogFile("latest/9000000/65535").stored, "log/latest/9000000/x065/535");
    assert.equal(storedLogFile("latest/9000000/1000").stored, "log/latest/9000000/x001/000");
  });

  it("refuses a path the log serves nothing at: a plan's mistake, never a row", () => {
    for (const path of ["verifier", "latest/300", "latest/300/01", "latest/1/9007199254740993"])
      assert.throws(() => storedLogFile(path), /serves no file/, path);
  });
});
