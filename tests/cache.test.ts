/**
 * The verification cache (scripts/cache/, docs/security.md, "The verification cache"): a changed byte,
 * pin, limit or tool invalidates exactly the entries it should; a warm build's output is
 * byte-identical to a cold one's; an entry written for another content tree never makes a
 * bad signature pass; expiry is judged at every run; a damaged cache is ignored, never trusted.
 */
import assert from "node:assert/strict";
import nodeCrypto, { createHash, createPublicKey, type KeyObject } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { after, describe, it, mock } from "node:test";
import { syncBuiltinESMExports } from "node:module";
import { BlobStore } from "../scripts/store/blob-store.ts";
import { KEY_KINDS, KeyRows, type KnownKeys } from "../scripts/cache/known-keys.ts";
import {
  cacheKey,
  cacheScope,
  keyPrefix,
  VerificationCache,
  type CachedVerdict,
} from "../scripts/cache/verification-cache.ts";
import { checkContent } from "../scripts/check/check-content.ts";
import { PublishedManifests } from "../scripts/check/published.ts";
import { keepBodies } from "../scripts/pipeline/kept-bodies.ts";
import { HeldBodies } from "../scripts/write/held-bodies.ts";
import { recall } from "../scripts/check/manifest-check.ts";
import { NO_OPT_INS } from "../scripts/check/unsigned.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { manifestFor, newKey } from "./support/fixture-content.ts";
import { fileDigests } from "./support/file-tree.ts";
import { CLI } from "./support/paths.ts";
import { printedProblems } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { runCli } from "./support/processes.ts";
import { withTmpfs } from "./support/tmpfs.ts";
import { rehash } from "./support/verification-file.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-cache-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let trees = 0;

const KEY_A = "did:web:fixture.example#key-a";
const KEY_B = "did:web:fixture.example#key-b";

function spki(key: KeyObject): string {
  return createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
}

function signedBy(umid: string, key: KeyObject, keyRef: string, extra: Record<string, unknown> = {}): string {
  const manifest = manifestFor(umid, extra);
  return JSON.stringify(
    { ...manifest, signature: signProfileA(manifest, key, keyRef, new Date("2026-01-01T00:00:00Z")) },
    null,
    2,
  );
}

/**
 * A content tree: three manifests signed with key A, two with key B, both pinned; and its own cache. Its CLI runs in
 * this process unless `run` says otherwise.
 */
function tree(keys = { a: newKey(), b: newKey() }, run = runCliInProcess) {
  const root = join(scratch, `tree-${++trees}`);
  const content = join(root, "content");
  mkdirSync(content, { recursive: true });
  writeFileSync(join(content, "_keys.json"), JSON.stringify({ [KEY_A]: spki(keys.a), [KEY_B]: spki(keys.b) }, null, 2));
  for (let i = 0; i < 3; i++) writeFileSync(join(content, `a${i}.json`), signedBy(`urn:cache:a${i}`, keys.a, KEY_A));
  for (let i = 0; i < 2; i++) writeFileSync(join(content, `b${i}.json`), signedBy(`urn:cache:b${i}`, keys.b, KEY_B));
  const env = { UM_CACHE_DIR: join(root, "cache") };
  const cli = (args: string[], more: Record<string, string> = {}) => run(args, root, { ...env, ...more });
  return { root, content, keys, env, cli };
}

/** How many manifests the run took from the cache, by its summary line. */
function recalled(stdout: string): number {
  return Number(/\((\d+) manifests? unchanged, from the cache\)/.exec(stdout)?.[1] ?? 0);
}

/** The warnings a run printed about the cache in `dir`: every one names its folder. */
function cacheWarnings(stderr: string, dir: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("manifest-resolver: warning: ") && line.includes(dir));
}

/** The segment files of the blob store in `cacheDir`. */
function segments(cacheDir: string): string[] {
  const bodies = join(cacheDir, "blobs");
  return readdirSync(bodies)
    .filter((name) => name.startsWith("seg-"))
    .map((name) => join(bodies, name));
}

/** How many blobs the index of the blob store in `cacheDir` names, by its header. */
function indexedBodies(cacheDir: string): number {
  const index = readFileSync(join(cacheDir, "blobs", "index"));
  return JSON.parse(index.toString("utf8", 0, index.indexOf(10))).count;
}

describe("what invalidates a cache entry", () => {
  it("a changed byte: that file alone is checked again, and its new verdict stands", async () => {
    const t = tree();
    const cold = await t.cli(["check", "--offline", "content"]);
    assert.equal(cold.status, 0, cold.stdout);
    assert.equal(recalled(cold.stdout), 0);
    assert.equal(recalled((await t.cli(["check", "--offline", "content"])).stdout), 5);
    const text = readFileSync(join(t.content, "a1.json"), "utf8");
    writeFileSync(
      join(t.content, "a1.json"),
      text.replace('"subject": "did:web:fixture.example"', '"subject": "did:web:fixture.example "'),
    );
    const warm = await t.cli(["check", "--offline", "content"]);
    assert.equal(recalled(warm.stdout), 4);
    assert.equal(warm.status, 1);
    assert.match(warm.stdout, /a1\.json:\d+:\d+ - error signature\/invalid/);
    // The failure is cached too, and still fails.
    const again = await t.cli(["check", "--offline", "content"]);
    assert.equal(recalled(again.stdout), 5);
    assert.equal(again.status, 1);
    assert.match(again.stdout, /a1\.json:\d+:\d+ - error signature\/invalid/);
  });

  it("a changed pin: the manifests of that key alone; a key pinned beside the others: none", async () => {
    const t = tree();
    await t.cli(["check", "--offline", "content"]);
    const pins = JSON.parse(readFileSync(join(t.content, "_keys.json"), "utf8"));
    writeFileSync(
      join(t.content, "_keys.json"),
      JSON.stringify({ ...pins, "did:web:fixture.example#key-c": spki(newKey()) }, null, 2),
    );
    const added = await t.cli(["check", "--offline", "content"]);
    assert.equal(added.status, 0, added.stdout);
    assert.equal(recalled(added.stdout), 5);
    writeFileSync(join(t.content, "_keys.json"), JSON.stringify({ ...pins, [KEY_B]: spki(newKey()) }, null, 2));
    const changed = await t.cli(["check", "--offline", "content"]);
    assert.equal(recalled(changed.stdout), 3);
    assert.equal(changed.status, 1);
    assert.equal((changed.stdout.match(/ - error signature\/key-mismatch/g) ?? []).length, 2, changed.stdout);
    assert.match(changed.stdout, /b0\.json/);
    assert.match(changed.stdout, /b1\.json/);
  });

  it("a changed limit or standards site: every entry", async () => {
    const t = tree();
    await t.cli(["check", "--offline", "content"]);
    const shallower = await t.cli(["check", "--offline", "content"], { UM_MAX_DEPTH: "1" });
    assert.equal(recalled(shallower.stdout), 0);
    assert.equal(shallower.status, 1, "a depth of 1 refuses the manifests' signature objects");
    assert.equal(
      recalled(
        (await t.cli(["check", "--offline", "content"], { UM_STANDARDS_URL: "https://standards.example" })).stdout,
      ),
      0,
    );
    assert.equal(
      recalled((await t.cli(["check", "--offline", "content"])).stdout),
      5,
      "the entries of the first settings are kept beside the others'",
    );
  });

  it("another tool: every entry (the tool's identity is in every key)", () => {
    const settings = settingsFromEnv({});
    const key = (tool: string, name: string) =>
      cacheKey(keyPrefix(cacheScope(settings, tool), name), Buffer.from("{}"));
    assert.notDeepEqual(key("tool 1", "a.json"), key("tool 2", "a.json"));
    assert.deepEqual(key("tool 1", "a.json"), key("tool 1", "a.json"));
    assert.notDeepEqual(key("tool 1", "a.json"), key("tool 1", "b.json"));
  });

  it("--no-verification-cache neither reads nor writes it", async () => {
    const t = tree();
    const run = await t.cli(["check", "--offline", "content", "--no-verification-cache"]);
    assert.equal(run.status, 0);
    assert.equal(readdirSync(t.root).includes("cache"), false);
    assert.equal(recalled((await t.cli(["check", "--offline", "content"])).stdout), 0);
    assert.equal(recalled((await t.cli(["check", "--offline", "content", "--no-verification-cache"])).stdout), 0);
  });

  it("--no-cache, its spelling until 0.1, still works, with a warning that names the new one", async () => {
    const t = tree();
    const run = await t.cli(["check", "--offline", "content", "--no-cache"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^manifest-resolver: check --no-cache is deprecated, .*use --no-verification-cache$/m);
    assert.equal(readdirSync(t.root).includes("cache"), false);
    const both = await t.cli(["check", "--offline", "content", "--no-cache", "--no-verification-cache"]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /give --no-verification-cache alone/);
    // The synopsis shows one spelling; the options list the old one as such.
    const help = (await t.cli(["check", "--offline", "--help"])).stdout;
    const [synopsis, options] = help.split("\nOptions:\n");
    assert.doesNotMatch(synopsis!, /--no-cache\b/);
    assert.match(options!, /--no-cache +deprecated spelling of --no-verification-cache/);
  });
});

describe("what a cache entry can never do", () => {
  it("make a bad signature pass in another content tree: same name, same bytes, another pin", async () => {
    const good = tree();
    assert.equal((await good.cli(["check", "--offline", "content"])).status, 0);
    // The same files, the same cache, but this tree pins another key for key A.
    const other = tree();
    for (const name of readdirSync(good.content))
      writeFileSync(join(other.content, name), readFileSync(join(good.content, name)));
    writeFileSync(
      join(other.content, "_keys.json"),
      JSON.stringify({ [KEY_A]: spki(newKey()), [KEY_B]: spki(good.keys.b) }, null, 2),
    );
    const shared = { UM_CACHE_DIR: good.env.UM_CACHE_DIR };
    const check = await other.cli(["check", "--offline", "content"], shared);
    assert.equal(check.status, 1);
    assert.equal((check.stdout.match(/ - error signature\/key-mismatch/g) ?? []).length, 3, check.stdout);
    assert.equal(recalled(check.stdout), 2, "key B's manifests read the same pin: their entries stand");
    const build = await other.cli(["build", "--content", "content", "--out", "dist", "--lookup-out", "lookup"], shared);
    assert.equal(build.status, 1, build.stdout);
    assert.equal(readdirSync(other.root).includes("dist"), false);
  });

  it("pass a forged file under a name whose genuine bytes are cached", async () => {
    const t = tree();
    assert.equal((await t.cli(["build", "--content", "content", "--out", "dist", "--lookup-out", "lookup"])).status, 0);
    writeFileSync(
      join(t.content, "a0.json"),
      signedBy("urn:cache:a0", newKey(), KEY_A, { subject: "did:web:forger.example" }),
    );
    const build = await t.cli(["build", "--content", "content", "--out", "dist", "--lookup-out", "lookup"]);
    assert.equal(build.status, 1);
    assert.match(build.stdout, /a0\.json:\d+:\d+ - error signature\/key-mismatch/);
  });

  it("outlive a damaged cache file: it is ignored with a warning, then rebuilt", async () => {
    const t = tree();
    await t.cli(["check", "--offline", "content"]);
    const file = join(t.env.UM_CACHE_DIR, "verification.json");
    truncateSync(file, readFileSync(file).byteLength - 10);
    const damaged = await t.cli(["check", "--offline", "content"]);
    assert.equal(damaged.status, 0, damaged.stdout);
    assert.equal(recalled(damaged.stdout), 0);
    assert.equal(cacheWarnings(damaged.stderr, t.env.UM_CACHE_DIR).length, 1, damaged.stderr);
    const text = readFileSync(file, "utf8");
    // Altered but well-formed: the digest on its first line no longer matches.
    assert.ok(text.includes('"urn:cache:a'));
    writeFileSync(file, text.replace('"urn:cache:a', '"urn:cache:x'));
    assert.equal(recalled((await t.cli(["check", "--offline", "content"])).stdout), 0);
    assert.equal(recalled((await t.cli(["check", "--offline", "content"])).stdout), 5);
  });

  it("check a file again whose entry is of the wrong shape, though the digest vouches for it", async () => {
    const t = tree();
    const cold = await t.cli(["check", "--offline", "content"]);
    const file = join(t.env.UM_CACHE_DIR, "verification.json");
    const bytes = readFileSync(file);
    const newline = bytes.indexOf(10);
    // One entry's umid made bare, the length kept: `["urn:…` is no longer JSON. Parsed only when it is recalled.
    const at = bytes.indexOf('["urn:cache:b1"');
    assert.ok(at > newline);
    bytes.write("[1", at, "latin1");
    rehash(file, bytes);
    const warm = await t.cli(["check", "--offline", "content"]);
    assert.equal(warm.status, 0, warm.stdout);
    assert.equal(recalled(warm.stdout), 4);
    assert.deepEqual(cacheWarnings(warm.stderr, t.env.UM_CACHE_DIR), []);
    assert.equal(warm.stdout.replace(/ \(.*\)/g, ""), cold.stdout);
    // The entry was dropped and made again.
    assert.equal(recalled((await t.cli(["check", "--offline", "content"])).stdout), 5);
  });
});

describe("where a recalled result places what it reports", () => {
  it("across files too, where a run without the cache places it", async () => {
    const t = tree();
    // Each @id and expiresAt at a place of its own (the signature covers the members, not
    // their layout), so that a place taken from another file, or from nowhere, shows.
    const relaid = (name: string, indent: number) => {
      const { "@id": umid, ...rest } = JSON.parse(readFileSync(join(t.content, name), "utf8"));
      return JSON.stringify({ ...rest, "@id": umid }, null, indent);
    };
    writeFileSync(join(t.content, "a0-copy.json"), relaid("a0.json", 4));
    writeFileSync(join(t.content, "b1.json"), relaid("b1.json", 3));
    writeFileSync(
      join(t.content, "_routes.json"),
      JSON.stringify({
        revoked: [{ umid: "urn:cache:b0", revokedAt: "2026-01-01T00:00:00Z" }],
        redirects: [{ umid: "urn:cache:b1", location: "https://elsewhere.example/b1" }],
      }),
    );
    const check = (...more: string[]) =>
      t.cli(["check", "--offline", "content", "--now", "2030-01-02T00:00:00Z", ...more]);
    const placed = (stdout: string) => stdout.split("\n").filter((line) => /^\S+:\d+:\d+ - /.test(line));
    const cold = await check("--no-verification-cache");
    await check();
    const warm = await check();
    assert.equal(recalled(warm.stdout), 6, warm.stdout);
    assert.deepEqual(placed(warm.stdout), placed(cold.stdout));
    const lines = placed(cold.stdout).join("\n");
    for (const pattern of [
      /a0-copy\.json:7:18 - warning time\/expired: /,
      /a0\.json:3:10 - error umid\/duplicate: @id "urn:cache:a0" is also the @id of \S+a0-copy\.json:16:12 at \/@id/,
      /b0\.json:3:10 - warning routes\/withheld: /,
      /_routes\.json:1:94 - error routes\/conflict: UMID "urn:cache:b1" is redirected here and published by \S+b1\.json:16:11/,
    ])
      assert.match(lines, pattern);
  });

  it("from the places its entry kept, reading nothing", () => {
    const entry: CachedVerdict = {
      umid: "urn:cache:gone",
      body: null,
      issuedAt: null,
      times: { issuedAt: "2031-01-01T00:00:00Z", expiresAt: "2020-01-01T00:00:00Z" },
      places: [7, 3, 11, 5, 13, 9],
      legacy: null,
      statusRef: null,
      reads: {},
      found: "",
      diagnostics: [],
    };
    const context = {
      settings: settingsFromEnv({}),
      now: new Date("2030-01-02T00:00:00Z"),
      strict: false,
      pins: undefined,
      unsigned: NO_OPT_INS,
    };
    // No such file: a place read from it would fail, or be 1:1.
    const result = recall(entry, join(scratch, "no-such-file.json"), context);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.rule, d.pointer, d.line, d.column]),
      [
        ["time/expired", "/expiresAt", 13, 9],
        ["time/not-yet-issued", "/issuedAt", 11, 5],
      ],
    );
    assert.deepEqual(result.umidAt, { line: 7, column: 3 });
  });
});

describe("expiry and the build", () => {
  it("judges expiry at every run from the times it kept", async () => {
    const t = tree();
    const before = await t.cli(["check", "--offline", "content", "--now", "2029-12-31T00:00:00Z"]);
    assert.equal(before.status, 0);
    assert.doesNotMatch(before.stdout, /time\/expired/);
    const afterExpiry = await t.cli(["check", "--offline", "content", "--now", "2030-01-02T00:00:00Z", "--strict"]);
    assert.equal(recalled(afterExpiry.stdout), 5);
    assert.equal(afterExpiry.status, 1);
    const expired = printedProblems(afterExpiry.stdout).filter((p) => p.rule === "time/expired");
    assert.equal(expired.length, 5, afterExpiry.stdout);
    // Each an error at its place, naming the expiresAt it kept.
    for (const problem of expired) {
      assert.deepEqual([problem.severity, problem.line === undefined], ["error", false]);
      assert.ok(problem.message.includes("2030-01-01T00:00:00Z"), problem.message);
    }
  });

  it(
    "a warm build's output is byte-identical to a cold one's, KV files included, and " +
      "takes what did not change from the store",
    async () => {
      const t = tree();
      const build = builder(t);
      assert.equal((await build("dist")).status, 0);
      writeFileSync(join(t.content, "b1.json"), signedBy("urn:cache:b1", t.keys.b, KEY_B, { name: "changed" }));
      const warm = await build("dist");
      assert.equal(warm.status, 0, warm.stdout);
      assert.equal(recalled(warm.stdout), 4);
      const cold = await build("cold", "--no-verification-cache");
      assert.equal(recalled(cold.stdout), 0);
      assert.deepEqual(fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "cold")));
      assert.deepEqual(fileDigests(join(t.root, "dist-kv")), fileDigests(join(t.root, "cold-kv")));
      // The one b1 had is kept with its entry (another branch may have it); and the states of the output and of the KV
      // folder this build wrote and read (another output sharing the cache may name those still).
      assert.equal(indexedBodies(t.env.UM_CACHE_DIR), 6 + 4);
      // A body the store no longer holds is checked and written again.
      rmSync(join(t.env.UM_CACHE_DIR, "blobs"), { recursive: true });
      const lost = await build("dist");
      assert.equal(lost.status, 0, lost.stdout);
      assert.deepEqual(fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "cold")));
    },
  );
});

describe("a build in a git working tree, by shard summaries", () => {
  it("takes unchanged shards whole, writes what a cold build writes, and not a body the store lost", async () => {
    const t = tree();
    const git = (...args: string[]) => {
      const run = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: t.root });
      assert.equal(run.status, 0, String(run.stderr));
    };
    git("init", "-q", "-b", "main");
    git("add", "content");
    git("commit", "-q", "-m", "content");
    const build = builder(t);
    assert.equal((await build("dist")).status, 0);
    assert.ok(readdirSync(join(t.env.UM_CACHE_DIR, "summaries")).length > 0);
    const cold = await build("cold", "--no-verification-cache");
    const same = await build("dist");
    assert.equal(recalled(same.stdout), 5);
    assert.deepEqual(fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "cold")));
    writeFileSync(join(t.content, "b1.json"), signedBy("urn:cache:b1", t.keys.b, KEY_B, { name: "changed" }));
    git("commit", "-q", "-am", "b1 changed");
    const changed = await build("dist");
    assert.equal(recalled(changed.stdout), 4, changed.stdout);
    assert.equal((await build("cold", "--no-verification-cache")).status, 0);
    assert.deepEqual(fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "cold")));
    // A summary stands only while the store holds its bodies.
    rmSync(join(t.env.UM_CACHE_DIR, "blobs"), { recursive: true });
    const lost = await build("dist");
    assert.equal(lost.status, 0, lost.stdout);
    assert.equal(recalled(lost.stdout), 0);
    assert.deepEqual(fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "cold")));
    assert.equal(cold.status, 0);
  });
});

/** What checkContent is given by a run with `cache`, at a fixed clock. */
const checkOptions = (cache: VerificationCache) => ({
  settings: settingsFromEnv({}),
  now: new Date("2027-01-01T00:00:00Z"),
  strict: false,
  cache,
});

describe("one run checking a file twice", () => {
  it("keeps one entry of it, whatever the run checks twice", async () => {
    const t = tree();
    const cache = new VerificationCache(t.env.UM_CACHE_DIR, false);
    await checkContent(t.content, checkOptions(cache));
    await checkContent(t.content, checkOptions(cache));
    cache.save();
    const reopened = new VerificationCache(t.env.UM_CACHE_DIR, false);
    assert.equal(reopened.ignored, undefined);
    assert.equal((await checkContent(t.content, checkOptions(reopened))).recalled, 5);
  });
});

describe("a body the store loses during a build", () => {
  it("is read again from its file, which must still be what the cache recalled", async () => {
    const t = tree();
    const first = new VerificationCache(t.env.UM_CACHE_DIR, true);
    const built = join(t.root, "built");
    mkdirSync(built);
    await checkContent(t.content, checkOptions(first), {
      publish: async (manifest) => {
        const body = (manifest.body as { bytes: Uint8Array }).bytes;
        const file = join(built, Buffer.from(manifest.umid).toString("base64url"));
        writeFileSync(file, body);
        first.blobs!.put(body);
        return true;
      },
    });
    first.save();
    // Another run prunes every stored body after this one listed them; meanwhile b0.json is edited.
    const second = new VerificationCache(t.env.UM_CACHE_DIR, true);
    const written: string[] = [];
    const result = await checkContent(t.content, checkOptions(second), {
      publish: async (manifest) => {
        if (manifest.body.kind === "bytes") {
          written.push(manifest.umid);
          return true;
        }
        if (manifest.umid === "urn:cache:b0")
          writeFileSync(join(t.content, "b0.json"), signedBy("urn:cache:b0", t.keys.b, KEY_B, { name: "edited" }));
        return false;
      },
    });
    // Each was checked again: none counts as taken from the cache.
    assert.equal(result.recalled, 0);
    assert.deepEqual(written.sort(), ["urn:cache:a0", "urn:cache:a1", "urn:cache:a2", "urn:cache:b1"]);
    assert.deepEqual(
      result.diagnostics.filter((d) => d.severity === "error").map((d) => [d.file.endsWith("b0.json"), d.rule]),
      [[true, "file/changed"]],
    );
  });
});

/** Digests (hex) as the body store takes what is wanted: a table of keys. */
function digestTable(digests: string[]): KnownKeys {
  const rows = new KeyRows();
  for (const digest of digests) rows.add(Buffer.from(digest, "hex"), KEY_KINDS.bytes, 0);
  return rows.table();
}

describe("the blob store", () => {
  it("files bytes under their SHA-256 and gives back only what still has it", () => {
    const dir = join(scratch, "store-put");
    const store = new BlobStore(join(dir, "blobs"));
    const digestOf = (text: string) => createHash("sha256").update(text).digest("hex");
    assert.equal(store.put(Buffer.from("one")), digestOf("one"));
    assert.equal(store.put(Buffer.from("two")), digestOf("two"));
    assert.equal(store.unwritable, undefined);
    store.save(digestTable(["one", "two", "three"].map(digestOf)));
    assert.equal(indexedBodies(dir), 2);
    const again = new BlobStore(join(dir, "blobs"));
    assert.equal(Buffer.from(again.get(digestOf("one")) as Uint8Array).toString(), "one");
    assert.equal(Buffer.from(again.get(digestOf("two")) as Uint8Array).toString(), "two");
    assert.equal(again.get(digestOf("three")), "missing");
  });

  it("keeps the blobs runs were told to keep, whatever a save wants, the 16 kept most recently", () => {
    const blobs = join(scratch, "store-keep", "blobs");
    const digestOf = (text: string) => createHash("sha256").update(text).digest("hex");
    const held = (store: BlobStore, text: string) => store.get(digestOf(text)) !== "missing";
    const first = new BlobStore(blobs);
    first.put(Buffer.from("a body"));
    assert.equal(first.keep(Buffer.from("state 0")), digestOf("state 0"));
    first.save(digestTable([digestOf("a body")]));
    // Runs that keep other states (other outputs sharing the cache) and want nothing: state 0 stays while 15 more
    // are kept after it, and goes with the 16th; a body nothing wants goes at once.
    for (let i = 1; i <= 16; i++) {
      const run = new BlobStore(blobs);
      assert.equal(held(run, "state 0"), true, `before state ${i}`);
      if (i === 1) assert.equal(held(run, "a body"), true);
      run.keep(Buffer.from(`state ${i}`));
      run.save(digestTable([]));
    }
    const last = new BlobStore(blobs);
    assert.equal(held(last, "state 0"), false);
    assert.equal(held(last, "a body"), false);
    for (let i = 1; i <= 16; i++) assert.equal(held(last, `state ${i}`), true, `state ${i}`);
    // Kept again, a state is the most recent once more.
    last.keep(Buffer.from("state 1"));
    last.save(digestTable([]));
    const next = new BlobStore(blobs);
    next.keep(Buffer.from("state 17"));
    next.save(digestTable([]));
    const after = new BlobStore(blobs);
    assert.deepEqual(
      [1, 2, 3, 17].map((i) => held(after, `state ${i}`)),
      [true, false, true, true],
    );
  });

  it("holds no segment open once saved, and takes no more blobs", (t) => {
    if (!existsSync("/proc/self/fd")) {
      t.skip("no /proc/self/fd to list this process's open files");
      return;
    }
    const dir = join(scratch, "store-closed");
    const store = new BlobStore(join(dir, "blobs"));
    store.put(Buffer.from("one"));
    store.save();
    const segments = readdirSync(join(dir, "blobs")).filter((name) => name.startsWith("seg-"));
    assert.equal(segments.length, 1);
    const open = readdirSync("/proc/self/fd").flatMap((fd) => {
      try {
        return [readlinkSync(join("/proc/self/fd", fd))];
      } catch {
        return [];
      }
    });
    assert.deepEqual(
      open.filter((path) => path.startsWith(join(dir, "blobs"))),
      [],
    );
    assert.throws(() => store.put(Buffer.from("two")), /was saved: it takes no more blobs/);
  });

  it("keeps no output file that is gone or not its body, and goes on keeping the others: a read is no refused write", () => {
    const dir = join(scratch, "store-keep");
    mkdirSync(dir, { recursive: true });
    const cache = new VerificationCache(join(dir, "cache"), true);
    const digestOf = (text: string) => createHash("sha256").update(text).digest();
    const published = new PublishedManifests();
    for (const name of ["one", "gone", "two", "three"]) published.add(`urn:keep:${name}`, digestOf(name));
    writeFileSync(join(dir, "one"), "one");
    writeFileSync(join(dir, "two"), "two");
    writeFileSync(join(dir, "three"), "not three");
    keepBodies(cache, published, (umid) => join(dir, umid.slice("urn:keep:".length)));
    assert.equal(cache.blobs!.unwritable, undefined);
    cache.blobs!.save(digestTable(["one", "gone", "two", "three"].map((name) => digestOf(name).toString("hex"))));
    const again = new BlobStore(join(dir, "cache", "blobs"));
    assert.deepEqual(
      ["one", "two", "gone", "three"].map((name) => again.has(digestOf(name).toString("hex"))),
      [true, true, false, false],
    );
    assert.equal(indexedBodies(join(dir, "cache")), 2);
  });

  it("keeps a held body without reading its file, and reads the rest back (issue 42)", () => {
    const dir = join(scratch, "store-keep-held");
    mkdirSync(dir, { recursive: true });
    const cache = new VerificationCache(join(dir, "cache"), true);
    const digestOf = (text: string) => createHash("sha256").update(text).digest();
    const published = new PublishedManifests();
    for (const name of ["held", "read"]) published.add(`urn:keep:${name}`, digestOf(name));
    // No file holds the held body: it can only come from memory. The other is past the budget, read from its file.
    const held = new HeldBodies(Buffer.byteLength("held"));
    held.hold(digestOf("held"), Buffer.from("held"));
    held.hold(digestOf("read"), Buffer.from("read"));
    assert.equal(held.get(digestOf("read")), undefined, "past the budget: not held");
    writeFileSync(join(dir, "read"), "read");
    keepBodies(cache, published, (umid) => join(dir, umid.slice("urn:keep:".length)), held);
    cache.blobs!.save(digestTable(["held", "read"].map((name) => digestOf(name).toString("hex"))));
    const again = new BlobStore(join(dir, "cache", "blobs"));
    assert.deepEqual(
      ["held", "read"]
        .map((name) => again.get(digestOf(name).toString("hex")))
        .map((b) => Buffer.from(b as Uint8Array).toString()),
      ["held", "read"],
    );
  });

  it("never removes a segment it did not make: a run whose random id is another's takes no blob, and costs none", () => {
    const dir = join(scratch, "store-same-id");
    const blobs = join(dir, "blobs");
    const digestOf = (text: string) => createHash("sha256").update(text).digest("hex");
    // Every run draws the same id: one chance in four billion, made certain.
    const draw = mock.method(nodeCrypto, "randomBytes", (size: number) => Buffer.alloc(size, 7));
    syncBuiltinESMExports();
    try {
      const first = new BlobStore(blobs);
      first.put(Buffer.from("one"));
      first.save();
      const second = new BlobStore(blobs);
      second.put(Buffer.from("two"));
      second.flush();
      assert.equal((second.unwritable as NodeJS.ErrnoException | undefined)?.code, "EEXIST");
      assert.throws(() => second.save(digestTable([])), { code: "EEXIST" });
    } finally {
      draw.mock.restore();
      syncBuiltinESMExports();
    }
    assert.equal(Buffer.from(new BlobStore(blobs).get(digestOf("one")) as Uint8Array).toString(), "one");
  });

  it("reads no more of a segment than it holds, whatever length an index with its digest remade claims", () => {
    const dir = join(scratch, "store-long");
    const blobs = join(dir, "blobs");
    const digest = createHash("sha256").update("one").digest("hex");
    const first = new BlobStore(blobs);
    first.put(Buffer.from("one"));
    first.save();
    // The one row's length made 4 GiB less a byte, and the table's digest made again: a forged index.
    const index = readFileSync(join(blobs, "index"));
    const rows = index.subarray(256);
    rows.writeUInt32LE(2 ** 32 - 1, 36);
    const header = JSON.parse(index.toString("utf8", 0, 256));
    header.sha256 = createHash("sha256").update(rows).digest("base64url");
    writeFileSync(join(blobs, "index"), Buffer.concat([Buffer.from(`${JSON.stringify(header).padEnd(255)}\n`), rows]));
    const allocated: number[] = [];
    const allocUnsafe = Buffer.allocUnsafe;
    const allocate = mock.method(Buffer, "allocUnsafe", (size: number) => {
      allocated.push(size);
      return allocUnsafe(size);
    });
    try {
      const forged = new BlobStore(blobs);
      assert.equal(forged.ignored, undefined);
      assert.equal(forged.get(digest), "altered");
    } finally {
      allocate.mock.restore();
    }
    assert.ok(
      allocated.every((size) => size < 1024 ** 2),
      `allocated ${allocated}`,
    );
  });

  it("copies the blobs still wanted into one new segment once most are not, and sweeps what killed runs left", () => {
    const dir = join(scratch, "store-compact");
    const blobs = join(dir, "blobs");
    const texts = Array.from({ length: 10 }, (_, i) => `body ${i} `.repeat(100));
    const digestOf = (text: string) => createHash("sha256").update(text).digest("hex");
    const first = new BlobStore(blobs);
    for (const text of texts) first.put(Buffer.from(text));
    first.save(digestTable(texts.map(digestOf)));
    const [cold] = segments(dir);
    // A killed run's segment and temporary, an hour old and a minute old.
    const old = (Date.now() - 3700_000) / 1000;
    for (const name of ["seg-0000dead", "seg-0000beef", ".index.0123456789ab.tmp", ".index.ba9876543210.tmp"]) {
      writeFileSync(join(blobs, name), "left");
      if (name.includes("dead") || name.includes("0123")) utimesSync(join(blobs, name), old, old);
    }
    const wanted = texts.slice(0, 3);
    new BlobStore(blobs).save(digestTable(wanted.map(digestOf)));
    const [compacted] = segments(dir).filter((path) => basename(path) !== "seg-0000beef");
    assert.deepEqual(
      readdirSync(blobs).sort(),
      ["index", "seg-0000beef", ".index.ba9876543210.tmp", basename(compacted!)].sort(),
    );
    assert.notEqual(compacted, cold);
    assert.equal(statSync(compacted!).size, wanted.join("").length);
    const store = new BlobStore(blobs);
    for (const text of wanted) assert.equal(Buffer.from(store.get(digestOf(text)) as Uint8Array).toString(), text);
    assert.equal(store.get(digestOf(texts[5]!)), "missing");
  });
});

describe("runs that meet in one cache", () => {
  it("two builds and a check at once, and checks killed at any instant, leave a cache every run can trust", {
    timeout: 120_000,
  }, async () => {
    // Processes of their own: runs in this process would take turns.
    const a = tree(undefined, runCli);
    const b = tree(undefined, runCli);
    const shared = { UM_CACHE_DIR: a.env.UM_CACHE_DIR };
    writeFileSync(join(b.content, "a2.json"), signedBy("urn:cache:a2", newKey(), KEY_A));
    const [builtA, builtB, checkedB] = await Promise.all([
      a.cli(["build", "--content", "content", "--out", "dist", "--lookup-out", "lookup"], shared),
      b.cli(["build", "--content", "content", "--out", "dist", "--lookup-out", "lookup"], shared),
      b.cli(["check", "--offline", "content"], shared),
    ]);
    assert.equal(builtA.status, 0, builtA.stdout + builtA.stderr);
    for (const refused of [builtB, checkedB]) {
      assert.equal(refused.status, 1);
      assert.match(refused.stdout, /a2\.json:\d+:\d+ - error signature\/key-mismatch/);
    }
    for (let i = 0; i < 6; i++) {
      const child = spawn(process.execPath, [CLI, "check", "content"], {
        cwd: b.root,
        env: { ...process.env, ...shared },
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await new Promise((resolve) => setTimeout(resolve, 40 + i * 60));
      child.kill("SIGKILL");
      await exited;
    }
    for (const [t, status] of [
      [a, 0],
      [b, 1],
    ] as const) {
      const run = await t.cli(["check", "--offline", "content"], shared);
      assert.equal(run.status, status, run.stdout);
      assert.equal(run.stderr, "", "no warning: the cache is whole");
    }
    const again = await b.cli(["check", "--offline", "content"], shared);
    assert.equal(recalled(again.stdout), 5);
    assert.match(again.stdout, /a2\.json:\d+:\d+ - error signature\/key-mismatch/);
  });
});

/** Builds `out` (with its KV files) from the tree's content; `more` options after. */
const builder =
  (t: ReturnType<typeof tree>) =>
  (out: string, ...more: string[]) =>
    t.cli([
      "build",
      "--content",
      "content",
      "--out",
      out,
      "--lookup-out",
      `${out}-lookup`,
      "--kv-out",
      `${out}-kv`,
      ...more,
    ]);
/** The output of a build with no cache, to compare a warm one with. */
const coldOutput = async (t: ReturnType<typeof tree>) => {
  assert.equal((await builder(t)("cold", "--no-verification-cache")).status, 0);
  return [fileDigests(join(t.root, "cold")), fileDigests(join(t.root, "cold-kv"))];
};

describe("a damaged body store", () => {
  const output = (t: ReturnType<typeof tree>, out = "dist") => [
    fileDigests(join(t.root, out)),
    fileDigests(join(t.root, `${out}-kv`)),
  ];

  it(
    "publishes no body altered in the store: it is dropped with a warning naming its " +
      "UMID, and its file verified again",
    async () => {
      const t = tree();
      const build = builder(t);
      assert.equal((await build("dist")).status, 0);
      // Another UMID of the same length, in the one body that names a1: the other bodies stay where the index says.
      const [segment] = segments(t.env.UM_CACHE_DIR);
      chmodSync(segment!, 0o644);
      writeFileSync(segment!, readFileSync(segment!, "utf8").replace('"urn:cache:a1"', '"urn:cache:x1"'));
      // Into a new output folder: the bodies come from the store (into dist/, in place, they are already there).
      const warm = await build("fresh");
      assert.equal(warm.status, 0, warm.stdout + warm.stderr);
      assert.equal(recalled(warm.stdout), 4);
      const warnings = cacheWarnings(warm.stderr, t.env.UM_CACHE_DIR);
      assert.equal(warnings.length, 1, warm.stderr);
      assert.ok(warnings[0]!.includes('"urn:cache:a1"'), warnings[0]);
      assert.deepEqual(output(t, "fresh"), await coldOutput(t));
      // The store holds the verified body again: the next build trusts it, and says nothing.
      const after = await build("fresh-again");
      assert.equal(recalled(after.stdout), 5);
      assert.deepEqual(cacheWarnings(after.stderr, t.env.UM_CACHE_DIR), []);
      assert.deepEqual(output(t, "fresh-again"), await coldOutput(t));
    },
  );

  it("ignores an index of bodies that does not match its digest, with a warning, and keeps the bodies again", async () => {
    const t = tree();
    const build = builder(t);
    assert.equal((await build("dist")).status, 0);
    const index = join(t.env.UM_CACHE_DIR, "blobs", "index");
    const bytes = readFileSync(index);
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(index, bytes);
    const warm = await build("dist");
    assert.equal(warm.status, 0, warm.stdout + warm.stderr);
    // No body is held: each manifest is checked again.
    assert.equal(recalled(warm.stdout), 0);
    const warnings = cacheWarnings(warm.stderr, t.env.UM_CACHE_DIR);
    assert.equal(warnings.length, 1, warm.stderr);
    assert.match(warnings[0]!, /index of blobs does not match its digest/);
    assert.deepEqual(output(t), await coldOutput(t));
    const after = await build("dist");
    assert.equal(recalled(after.stdout), 5);
    assert.deepEqual(cacheWarnings(after.stderr, t.env.UM_CACHE_DIR), []);
    // The segment the damaged index named is named by none now: a later run removes it once an hour old.
    assert.equal(segments(t.env.UM_CACHE_DIR).length, 2);
  });

  it(
    "shares no inode between an output and the cache, or between two outputs: a " +
      "served file edited in place reaches no later build",
    async () => {
      const t = tree();
      const build = builder(t);
      assert.equal((await build("dist")).status, 0);
      assert.equal((await build("dist")).status, 0);
      const inodes = (dir: string) =>
        readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => statSync(join(e.parentPath, e.name)).ino);
      const cached = new Set(inodes(t.env.UM_CACHE_DIR));
      const served = ["dist", "dist-kv", "dist-lookup"].flatMap((dir) => inodes(join(t.root, dir)));
      assert.deepEqual(
        served.filter((ino) => cached.has(ino)),
        [],
      );
      assert.equal(new Set(served).size, served.length);
      const bodies = readdirSync(join(t.root, "dist", "m"), { recursive: true, withFileTypes: true });
      for (const body of bodies.filter((e) => e.isFile())) {
        const path = join(body.parentPath, body.name);
        chmodSync(path, 0o644);
        writeFileSync(path, readFileSync(path, "utf8").replace("fixture", "forged!"));
      }
      assert.equal((await build("dist")).status, 0);
      // A warm build trusts its own output, leaving unchanged bodies as they are (docs/security.md); what was edited
      // there reaches no other build: one into a new folder, from the cache, writes what a cold build writes.
      assert.equal((await build("fresh")).status, 0);
      assert.deepEqual(
        [fileDigests(join(t.root, "fresh")), fileDigests(join(t.root, "fresh-kv"))],
        await coldOutput(t),
      );
    },
  );
});

describe("a cache that cannot be used", () => {
  const build = (t: ReturnType<typeof tree>, env: Record<string, string> = {}) =>
    t.cli(
      ["build", "--content", "content", "--out", "dist", "--lookup-out", "dist-lookup", "--kv-out", "dist-kv"],
      env,
    );
  /** The output folders removed: a build into them, in place, takes no body from the store. */
  const withoutOutput = (t: ReturnType<typeof tree>) => {
    for (const out of ["dist", "dist-kv"]) rmSync(join(t.root, out), { recursive: true, force: true });
  };
  /**
   * A build with the cache unusable: exit 0, one warning that says so, no stack trace, and the output of a build
   * without one.
   */
  const assertBuiltWithout = async (t: ReturnType<typeof tree>, env: Record<string, string> = {}) => {
    const run = await build(t, env);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal(cacheWarnings(run.stderr, env.UM_CACHE_DIR ?? t.env.UM_CACHE_DIR).length, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m);
    const built = [fileDigests(join(t.root, "dist")), fileDigests(join(t.root, "dist-kv"))];
    assert.deepEqual(built, await coldOutput(t));
  };
  it("a cache folder that is a regular file", async () => {
    const t = tree();
    writeFileSync(join(t.root, "cache-file"), "not a folder");
    await assertBuiltWithout(t, { UM_CACHE_DIR: join(t.root, "cache-file") });
  });

  it("a body store that is a regular file", async () => {
    const t = tree();
    mkdirSync(t.env.UM_CACHE_DIR);
    writeFileSync(join(t.env.UM_CACHE_DIR, "blobs"), "not a folder");
    await assertBuiltWithout(t);
  });

  it("a cache folder without write permission, its store holding all but one body", async (context) => {
    if (process.getuid?.() === 0)
      return context.skip("root writes to a folder without write permission: the read-only tmpfs case covers it");
    const t = tree();
    assert.equal((await build(t)).status, 0);
    writeFileSync(join(t.content, "b1.json"), signedBy("urn:cache:b1", t.keys.b, KEY_B, { name: "changed" }));
    chmodSync(join(t.env.UM_CACHE_DIR, "blobs"), 0o555);
    chmodSync(t.env.UM_CACHE_DIR, 0o555);
    try {
      await assertBuiltWithout(t);
    } finally {
      chmodSync(t.env.UM_CACHE_DIR, 0o755);
      chmodSync(join(t.env.UM_CACHE_DIR, "blobs"), 0o755);
    }
  });

  it("a read-only disk (EROFS), empty or holding all but one body", async (context) => {
    await withTmpfs(context, scratch, "4m", async (disk) => {
      // Processes of their own: the disk is remounted read-only between runs, which a file a run in this process
      // left open (the blob store's segment) would prevent.
      const t = tree(undefined, runCli);
      const env = { UM_CACHE_DIR: join(disk.dir, "cache") };
      assert.equal((await build(t, env)).status, 0);
      writeFileSync(join(t.content, "b1.json"), signedBy("urn:cache:b1", t.keys.b, KEY_B, { name: "changed" }));
      disk.readOnly();
      await assertBuiltWithout(t, env);
      await assertBuiltWithout(t, { UM_CACHE_DIR: join(disk.dir, "never-made") });
    });
  });

  it(
    "a disk the output and the cache share, with room for the output alone: the " + "output comes first",
    async (context) => {
      await withTmpfs(context, scratch, "2m", async (disk) => {
        const t = tree();
        const on = (dir: string) => join(disk.dir, dir);
        const built = (env: Record<string, string>) =>
          t.cli(
            [
              "build",
              "--content",
              "content",
              "--out",
              on("dist"),
              "--lookup-out",
              on("lookup"),
              "--kv-out",
              on("kv"),
              ...(env.UM_CACHE_DIR === undefined ? ["--no-verification-cache"] : []),
            ],
            env,
          );
        const free = () => statfsSync(disk.dir).bavail * statfsSync(disk.dir).bsize;
        const before = free();
        assert.equal((await built({})).status, 0);
        const needed = before - free();
        for (const dir of ["dist", "lookup", "kv"]) rmSync(on(dir), { recursive: true });
        // Room for the output, and three pages more (the outputs' lock files): none for the cache's bodies.
        writeFileSync(on("filler"), Buffer.alloc(free() - needed - 3 * 4096));
        const run = await built({ UM_CACHE_DIR: on("cache") });
        assert.equal(run.status, 0, run.stdout + run.stderr);
        assert.equal(cacheWarnings(run.stderr, on("cache")).length, 1, run.stderr);
        assert.deepEqual([fileDigests(on("dist")), fileDigests(on("kv"))], await coldOutput(t));
      });
    },
  );

  it("a cache file or segment of bodies that is a FIFO, or a link to a device or another file, is " +
    "never read as one: a warning, and the output of a cold build", {
    timeout: 60_000,
  }, async () => {
    for (const replace of ["fifo", "device-link", "body-link", "store-link"] as const) {
      // A FIFO's runs in processes of their own: one that opened it would block this process, the test's timeout too.
      const t = tree(undefined, replace === "fifo" ? runCli : runCliInProcess);
      assert.equal((await build(t)).status, 0);
      const bodies = join(t.env.UM_CACHE_DIR, "blobs");
      // One segment holds the five bodies: one warning says it holds none, and all five are checked again.
      const [segment] = segments(t.env.UM_CACHE_DIR);
      rmSync(segment!);
      if (replace === "fifo") assert.equal(spawnSync("mkfifo", [segment!]).status, 0);
      if (replace === "device-link") symlinkSync("/dev/zero", segment!);
      if (replace === "body-link") symlinkSync(join(t.content, "a0.json"), segment!);
      if (replace === "store-link") {
        rmSync(bodies, { recursive: true });
        mkdirSync(join(t.root, "elsewhere"));
        writeFileSync(join(t.root, "elsewhere", "a".repeat(64)), "not the store's");
        symlinkSync(join(t.root, "elsewhere"), bodies);
      }
      // Into no previous output, so that the bodies come from the store.
      withoutOutput(t);
      await assertBuiltWithout(t);
      if (replace !== "store-link") {
        // The bodies were kept again: the next build takes them all from the store, and says nothing.
        withoutOutput(t);
        const again = await build(t);
        assert.equal(recalled(again.stdout), 5, again.stdout + again.stderr);
        assert.deepEqual(cacheWarnings(again.stderr, t.env.UM_CACHE_DIR), []);
      }
      if (replace === "store-link") assert.deepEqual(readdirSync(join(t.root, "elsewhere")), ["a".repeat(64)]);
    }
    const t = tree(undefined, runCli);
    mkdirSync(t.env.UM_CACHE_DIR);
    assert.equal(spawnSync("mkfifo", [join(t.env.UM_CACHE_DIR, "verification.json")]).status, 0);
    const checked = await t.cli(["check", "--offline", "content"]);
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    // Not read (a FIFO would block the run): ignored, with a warning.
    assert.equal(cacheWarnings(checked.stderr, t.env.UM_CACHE_DIR).length, 1, checked.stderr);
  });

  it("a full disk (ENOSPC)", async (context) => {
    await withTmpfs(context, scratch, "64k", async (disk) => {
      const t = tree();
      const env = { UM_CACHE_DIR: join(disk.dir, "cache") };
      mkdirSync(join(disk.dir, "cache", "blobs"), { recursive: true });
      // The first body the build keeps finds no room.
      disk.fill();
      await assertBuiltWithout(t, env);
    });
  });
});
