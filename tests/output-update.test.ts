/**
 * A build's output is staged and put in place by one writer (scripts/write/output-update.ts), after one check: a body
 * the update needs that the check did not hand over comes from a body source, whether the previous output is
 * updated in place or, not being as its state says, replaced whole. Nothing makes the check run again.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { checkContent, type ContentCheck } from "../scripts/check/check-content.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { displayPath } from "../scripts/read/files.ts";
import { BodyNames } from "../scripts/plan/body-names.ts";
import { planOutput } from "../scripts/plan/output-plan.ts";
import { BlobStore } from "../scripts/store/blob-store.ts";
import { OutputUpdate } from "../scripts/write/output-update.ts";
import { formatEtag, etagSha256 } from "../edge/etag.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { fileDigests } from "./support/file-tree.ts";

const key = newKey();
const scratch = mkdtempSync(join(tmpdir(), "um-output-update-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const settings = settingsFromEnv({});
const NEXT_CHECK = "PT1H";

function contentWith(name: string, count: number, revoked: string[] = []): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "_keys.json"), JSON.stringify(pinning(key)));
  writeFileSync(join(dir, "_routes.json"), JSON.stringify({ revoked: revoked.map((umid) => ({ umid })) }));
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, `m${i}.json`), JSON.stringify(signed(manifestFor(`urn:update:${i}`), key)));
  return dir;
}

/** Each UMID's body, as the check would hand it over, by ETag: what a cache's blob store would give. */
type Bodies = Map<string, Uint8Array>;

/**
 * Builds `content` into `out` as the build does, the check handing over the bodies `handed` says (all, as a cold
 * build; none, as a warm one whose cache recalls every file), and the body source answering with the bodies checked
 * (as a blob store or a file read again would), unless `answering` is false; returns the bodies checked, what the
 * source was asked for, and whether the output was put in place.
 */
async function build(
  content: string,
  out: string,
  handed: "all" | "none",
  answering = true,
): Promise<{ asked: string[]; done: boolean; check: ContentCheck; source: Bodies }> {
  const source: Bodies = new Map();
  const names = new BodyNames();
  // The build's store, where the output's state is kept: opened and saved once per build, as a build does.
  const store = new BlobStore(`${out}-store`);
  const update = await OutputUpdate.open(out, store);
  const check = await checkContent(
    content,
    { settings, now: new Date("2027-01-01T00:00:00Z"), strict: false },
    {
      publish: async (manifest) => {
        assert.equal(manifest.body.kind, "bytes");
        const body = manifest.body.kind === "bytes" ? manifest.body.bytes : undefined;
        source.set(formatEtag(manifest.digest), body!);
        update.stage(names.add(manifest.umid), handed === "all" ? body : undefined);
        return true;
      },
    },
  );
  assert.deepEqual(
    check.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule),
    [],
  );
  const plan = planOutput(check, names, NEXT_CHECK);
  const asked: string[] = [];
  const published = {
    count: check.published.length,
    *each() {
      for (let i = 0; i < check.published.length; i++) {
        const umid = check.published.umidAt(i);
        yield { umid, file: names.fileOf(umid), etag: formatEtag(check.published.digestBytesAt(i)) };
      }
    },
  };
  const done = await update.prepare(plan, published, (umid, etag) => {
    asked.push(umid);
    return answering ? source.get(etag) : undefined;
  });
  if (done) await update.commit();
  else await update.discard();
  store.save();
  return { asked: asked.sort(), done, check, source };
}

/** What a whole build of `content` writes, every body handed over. */
async function wholeOutput(content: string): Promise<Record<string, string>> {
  const out = join(scratch, `whole-${readdirSync(scratch).length}`);
  const { asked } = await build(content, out, "all");
  assert.deepEqual(asked, []);
  return fileDigests(out);
}

describe("one writer puts the output in place, after one check", () => {
  it("an update in place has a body it needs and was not handed over from the body source, and no other", async () => {
    const content = contentWith("revoked", 6, ["urn:update:2"]);
    const out = join(scratch, "revoked-out");
    await build(content, out, "all");
    // Published again, urn:update:2's body is in neither the previous output nor what the check hands over.
    writeFileSync(join(content, "_routes.json"), JSON.stringify({ revoked: [] }));
    const warm = await build(content, out, "none");
    assert.deepEqual(warm.asked, ["urn:update:2"]);
    assert.deepEqual(fileDigests(out), await wholeOutput(content));
    assert.deepEqual(
      readdirSync(scratch).filter((name) => name.startsWith(".revoked-out.")),
      [],
    );
  });

  it("a previous output not as its state says is replaced whole, the bodies not handed over from the source", async () => {
    const content = contentWith("damaged", 5);
    const out = join(scratch, "damaged-out");
    await build(content, out, "all");
    // A changed manifest makes its shard change; the previous shard is then read, and is not one a build wrote.
    writeFileSync(
      join(content, "m1.json"),
      JSON.stringify(signed(manifestFor("urn:update:1", { issuedAt: "2026-02-01T00:00:00Z" }), key)),
    );
    const shards = readdirSync(join(out, "index"));
    for (const shard of shards) writeFileSync(join(out, "index", shard), "not a shard");
    writeFileSync(join(out, "m", "stray"), "a file no build wrote");
    const warm = await build(content, out, "none");
    assert.deepEqual(warm.asked, ["urn:update:0", "urn:update:1", "urn:update:2", "urn:update:3", "urn:update:4"]);
    assert.deepEqual(fileDigests(out), await wholeOutput(content));
  });

  it("a body the source cannot give leaves the previous output as it was", async () => {
    const content = contentWith("unavailable", 3, ["urn:update:0"]);
    const out = join(scratch, "unavailable-out");
    await build(content, out, "all");
    const before = fileDigests(out);
    writeFileSync(join(content, "_routes.json"), JSON.stringify({ revoked: [] }));
    const warm = await build(content, out, "none", false);
    assert.equal(warm.done, false);
    assert.deepEqual(fileDigests(out), before);
    assert.deepEqual(
      readdirSync(scratch).filter((name) => name.startsWith(".unavailable-out.")),
      [],
    );
  });
});

describe("a body had again from its file", () => {
  it("is the body the check published, or a file/changed problem once the file changed", async () => {
    const content = contentWith("again", 2);
    const { check, source } = await build(content, join(scratch, "again-out"), "all");
    const digestOf = (umid: string) => {
      const etag = [...source.keys()].find((e) => source.get(e) === bodyOf(umid))!;
      return Buffer.from(etagSha256(etag)).toString("hex");
    };
    const bodyOf = (umid: string) =>
      [...source.values()].find((body) => Buffer.from(body).toString().includes(`"${umid}"`));
    const kept = digestOf("urn:update:0");
    assert.deepEqual(check.bodyAgain("urn:update:0", kept), bodyOf("urn:update:0"));
    const edited = digestOf("urn:update:1");
    writeFileSync(
      join(content, "m1.json"),
      JSON.stringify(signed(manifestFor("urn:update:1", { issuedAt: "2026-03-01T00:00:00Z" }), key)),
    );
    assert.equal(check.bodyAgain("urn:update:1", edited), undefined);
    assert.deepEqual(
      check.diagnostics.map((d) => [d.rule, d.file]),
      [["file/changed", displayPath(join(content, "m1.json"))]],
    );
  });
});
