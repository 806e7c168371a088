/**
 * The plan of a build's output is data (scripts/plan/output-plan.ts): the same content
 * plans the same output, byte for byte, and a change to one manifest changes only what
 * names it, so that a later build can compare plans and write only what changed.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { checkContent } from "../../scripts/check/check-content.ts";
import { settingsFromEnv } from "../../scripts/config.ts";
import { shardOf } from "../../edge/shard-file.ts";
import { BodyNames } from "../../scripts/plan/body-names.ts";
import { planOutput } from "../../scripts/plan/output-plan.ts";
import { caseTwins, manifestFor, newKey, pinning, signed } from "../support/fixture-content.ts";

const key = newKey();
const root = mkdtempSync(join(tmpdir(), "um-plan-"));
after(() => rmSync(root, { recursive: true, force: true }));

function content(name: string, manifests: Record<string, unknown>[]): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "_keys.json"), JSON.stringify(pinning(key)));
  writeFileSync(
    join(dir, "_routes.json"),
    JSON.stringify({ redirects: [{ umid: "urn:plan:moved", location: "https://elsewhere.example/urn:plan:moved" }] }),
  );
  for (const [i, m] of manifests.entries()) writeFileSync(join(dir, `m${i}.json`), JSON.stringify(m));
  return dir;
}

/** The whole plan as plain data: index files (as hex), each body's file and ETag as the index records them, KV routes. */
interface Entry {
  file?: string;
  etag?: string;
}

async function planOf(dir: string, nextCheck = "PT1H") {
  const names = new BodyNames();
  const check = await checkContent(
    dir,
    { settings: settingsFromEnv({}), now: new Date("2027-01-01T00:00:00Z"), strict: false },
    {
      publish: async (manifest) => {
        names.add(manifest.umid);
        return true;
      },
    },
  );
  assert.deepEqual(
    check.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule),
    [],
  );
  const plan = planOutput(check, names, nextCheck);
  const files = [...plan.indexFiles()];
  const records = files
    .filter((f) => f.path.startsWith("index/"))
    .flatMap((f) => Object.entries(JSON.parse(Buffer.from(f.bytes).toString()).records as Record<string, Entry>));
  return {
    bodies: Object.fromEntries(
      records.flatMap(([umid, entry]) =>
        entry.file === undefined ? [] : [[umid, { file: entry.file, etag: entry.etag }]],
      ),
    ),
    index: Object.fromEntries(files.map((f) => [f.path, Buffer.from(f.bytes).toString("hex")])),
    inputs: Object.fromEntries(files.flatMap((f) => (f.inputs === undefined ? [] : [[f.path, f.inputs]]))),
    kv: [...plan.kvShards()].map(({ shard, inputs, sources }) => ({ shard, inputs, sources: [...sources()] })),
  };
}

describe("the output plan", () => {
  const [twinA, twinB] = caseTwins();
  const manifests = [
    signed(manifestFor("urn:plan:a"), key),
    signed(manifestFor("urn:plan:b"), key),
    signed(manifestFor(twinA), key),
    signed(manifestFor(twinB), key),
  ];

  it("is the same for the same content", async () => {
    assert.deepEqual(await planOf(content("one", manifests)), await planOf(content("two", manifests)));
  });

  it("names case twins by digest, whatever their order", async () => {
    const plan = await planOf(content("twins", manifests));
    const reversed = await planOf(content("reversed", [...manifests].reverse()));
    const files = (p: typeof plan) => Object.fromEntries(Object.entries(p.bodies).map(([umid, b]) => [umid, b.file]));
    assert.deepEqual(files(plan), files(reversed));
    assert.match(files(plan)[twinA]!, /^h\/([0-9a-f]{3})\/\1[0-9a-f]{61}$/);
    assert.match(files(plan)[twinB]!, /^h\/([0-9a-f]{3})\/\1[0-9a-f]{61}$/);
    const name = Buffer.from("urn:plan:a").toString("base64url");
    assert.equal(files(plan)["urn:plan:a"], `m/${shardOf("urn:plan:a")}/${name}`);
  });

  it("changes, for one changed manifest, only its body's ETag and the index shard holding it", async () => {
    const before = await planOf(content("before", manifests));
    const edited = [signed(manifestFor("urn:plan:a", { name: "edited" }), key), ...manifests.slice(1)];
    const now = await planOf(content("after", edited));
    const changed = Object.keys(now.bodies).filter((umid) => now.bodies[umid]!.etag !== before.bodies[umid]!.etag);
    assert.deepEqual(changed, ["urn:plan:a"]);
    const shards = Object.keys(now.index).filter((path) => now.index[path] !== before.index[path]);
    assert.equal(shards.length, 1);
    assert.ok(Buffer.from(now.index[shards[0]!]!, "hex").toString().includes('"urn:plan:a"'));
    const kvChanged = now.kv.filter((shard, i) => JSON.stringify(shard) !== JSON.stringify(before.kv[i]));
    assert.deepEqual(
      kvChanged.map(({ shard }) => shard),
      [shardOf("urn:plan:a")],
    );
  });

  it("gives each shard the digest of its inputs: another exactly where the shard's bytes change", async () => {
    const before = await planOf(content("inputs-before", manifests));
    const edited = [signed(manifestFor("urn:plan:b", { name: "edited" }), key), ...manifests.slice(0, 1)];
    const now = await planOf(content("inputs-after", [...edited, ...manifests.slice(2)]));
    const changedBytes = Object.keys(now.index).filter((path) => now.index[path] !== before.index[path]);
    const changedInputs = Object.keys(now.inputs).filter((path) => now.inputs[path] !== before.inputs[path]);
    assert.deepEqual(
      changedInputs,
      changedBytes.filter((path) => path in now.inputs),
    );
    assert.equal(changedInputs.length, 1);
    const later = await planOf(content("inputs-next-check", manifests), "PT2H");
    assert.ok(
      Object.keys(later.inputs).every((path) => later.inputs[path] !== before.inputs[path]),
      "a setting every status carries is an input of every shard",
    );
  });
});
