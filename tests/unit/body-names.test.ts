/**
 * Where a body goes (scripts/plan/body-names.ts): in the folder named like its UMID's index shard, a place that
 * depends on the UMID alone, so that a path stays the same from one build to the next whatever else the content holds;
 * the one exception is case twins that meet in one folder.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import { shardPath } from "../../edge/records.ts";
import { shardOf } from "../../edge/shard-file.ts";
import { BodyNames } from "../../scripts/plan/body-names.ts";
import { caseTwins } from "../support/fixture-content.ts";

/** The file of each of `umids` once all are named, added in this order. */
function filesOf(umids: string[]): Map<string, string> {
  const names = new BodyNames();
  for (const umid of umids) names.add(umid);
  return new Map(umids.map((umid) => [umid, names.fileOf(umid)]));
}

const digestFile = (umid: string) => {
  const hex = createHash("sha256").update(umid).digest("hex");
  return `h/${hex.slice(0, 3)}/${hex}`;
};

test("a body lives in the folder named like its index shard, by the base64url of its UMID", () => {
  // A lone surrogate too: its UTF-8 is U+FFFD's, as core/base64url.ts encodes it.
  for (const umid of [
    "urn:uuid:4b7d1e2a-93c1-4f0e-a6b2-7d8e9f0a1b2c",
    "a/b ü",
    "ünïcødé-日本語-🚀",
    "lone \ud800 half",
  ]) {
    const file = filesOf([umid]).get(umid)!;
    assert.equal(file, `m/${shardOf(umid)}/${encodeBase64url(utf8(umid))}`);
    assert.equal(shardPath(umid), `index/${file.split("/")[1]}.json`);
  }
});

test("a body's path depends on its UMID alone: the same UMID among other content, in another order, same path", () => {
  const umid = "urn:example:stable";
  const long = `urn:long:${"x".repeat(200)}`;
  const [twinA, twinB] = caseTwins("apart");
  const others = Array.from({ length: 5_000 }, (_, i) => `urn:example:${i}`);
  const alone = filesOf([umid, long]);
  for (const content of [
    [...others, umid, long],
    [umid, long, ...others.reverse()],
    [twinA, long, twinB, ...others.slice(0, 100), umid],
  ]) {
    const files = filesOf(content);
    assert.equal(files.get(umid), alone.get(umid));
    assert.equal(files.get(long), alone.get(long));
  }
  assert.equal(alone.get(long), digestFile(long), "a name over 128 characters is a digest name");
});

test("case twins in different folders never meet: each keeps its base64url name", () => {
  const [a, b] = caseTwins("apart");
  assert.equal(encodeBase64url(utf8(a)).toLowerCase(), encodeBase64url(utf8(b)).toLowerCase());
  assert.notEqual(shardOf(a), shardOf(b));
  const files = filesOf([a, b]);
  assert.equal(files.get(a), `m/${shardOf(a)}/${encodeBase64url(utf8(a))}`);
  assert.equal(files.get(b), `m/${shardOf(b)}/${encodeBase64url(utf8(b))}`);
  assert.notEqual(files.get(a)!.toLowerCase(), files.get(b)!.toLowerCase());
});

test("case twins in one folder are both named by digest, whatever their order, the earlier one moved", () => {
  const [a, b] = caseTwins("together");
  assert.equal(shardOf(a), shardOf(b));
  const names = new BodyNames();
  assert.deepEqual(names.add(a), { file: `m/${shardOf(a)}/${encodeBase64url(utf8(a))}` });
  assert.deepEqual(names.add(b), {
    file: digestFile(b),
    move: { from: `m/${shardOf(a)}/${encodeBase64url(utf8(a))}`, to: digestFile(a) },
  });
  assert.deepEqual(
    filesOf([a, b]),
    new Map([
      [a, digestFile(a)],
      [b, digestFile(b)],
    ]),
  );
  assert.deepEqual(
    filesOf([b, a]),
    new Map([
      [b, digestFile(b)],
      [a, digestFile(a)],
    ]),
  );
});
