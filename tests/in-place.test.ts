/**
 * A warm `build` updates the previous output in place: its output is always byte for byte a cold build's of the same
 * content, it rewrites only what changed, and a kill at any instant leaves an output the next build completes.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, describe, it } from "node:test";
import { encodeBase64url, utf8 } from "../core/base64url.ts";
import { shardOf } from "../edge/shard-file.ts";
import { recoverOutput } from "../scripts/write/output.ts";
import { caseTwins, manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { fileDigests } from "./support/file-tree.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { CLI } from "./support/paths.ts";
import { runCli } from "./support/processes.ts";
import { kvPairs } from "./support/kv-files.ts";

const key = newKey();
const scratch = mkdtempSync(join(tmpdir(), "um-in-place-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function build(content: string, out: string, cache: string | undefined) {
  return runCliInProcess(
    [
      "build",
      "--content",
      content,
      "--out",
      out,
      "--lookup-out",
      `${out}-lookup`,
      "--kv-out",
      `${out}-kv`,
      ...(cache ? [] : ["--no-verification-cache"]),
    ],
    process.cwd(),
    { UM_RESOLVER_URL: "", ...(cache && { UM_CACHE_DIR: cache }) },
  );
}

/** A built folder as a cold build must match it: every file's digest, and every folder, empty ones too. */
function tree(dir: string): { files: Record<string, string>; folders: string[] } {
  const folders = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
  return { files: fileDigests(dir), folders };
}

let colds = 0;
/** The tree a cold build of `content` writes: no previous output, no cache. */
async function coldTree(content: string) {
  return (await coldTrees(content)).out;
}

/** The trees a cold build of `content` writes: the output and the KV folder. */
async function coldTrees(content: string) {
  const out = join(scratch, `cold-${colds++}`);
  const result = await build(content, out, undefined);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  return { out: tree(out), kv: tree(`${out}-kv`) };
}

const write = (dir: string, file: string, value: unknown) => {
  mkdirSync(join(dir, file, ".."), { recursive: true });
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
};
const manifest = (umid: string, issuedAt = "2026-01-01T00:00:00Z") => signed(manifestFor(umid, { issuedAt }), key);
const bodyOf = (out: string, umid: string) => join(out, "m", shardOf(umid), encodeBase64url(utf8(umid)));
/** The KV files of every bucket of index shards but `bucket`. */
const kvFilesOutside = (kvDir: string, bucket: string) =>
  readdirSync(kvDir)
    .filter((name) => /^[0-9a-f]{2}$/.test(name) && name !== bucket)
    .flatMap((name) =>
      readdirSync(join(kvDir, name), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".json"))
        .map((file) => join(kvDir, name, file)),
    );
const asides = (out: string) => readdirSync(join(out, "..")).filter((name) => name.startsWith(`.${basename(out)}.`));

describe("build in place: the output of a cold build, whatever changed", () => {
  const content = join(scratch, "content");
  const out = join(scratch, "dist");
  const cache = join(scratch, "cache");
  for (let i = 0; i < 30; i++) write(content, `m${i}.json`, manifest(`urn:warm:${i}`));
  write(content, "_routes.json", { redirects: [], revoked: [] });
  const [twinA, twinB] = caseTwins();

  /** Builds warm, and compares with a cold build of the same content. */
  const warmEqualsCold = async (what: string) => {
    const result = await build(content, out, cache);
    assert.equal(result.status, 0, `${what}: ${result.stdout}${result.stderr}`);
    assert.deepEqual({ out: tree(out), kv: tree(`${out}-kv`) }, await coldTrees(content), what);
    assert.deepEqual(asides(out), [], `${what}: leftovers`);
    assert.deepEqual(asides(`${out}-kv`), [], `${what}: KV leftovers`);
  };

  it("first build (cold), then an unchanged one", async () => {
    await warmEqualsCold("first");
    await warmEqualsCold("unchanged");
  });

  it("rewrites a changed body and leaves every unchanged body's file as it was", async () => {
    const untouched = bodyOf(out, "urn:warm:1");
    const before = statSync(untouched);
    // The KV files of every other bucket, as they were.
    const kvFiles = (bucket: string) => readdirSync(join(`${out}-kv`, bucket), { recursive: true, encoding: "utf8" });
    const otherBuckets = readdirSync(`${out}-kv`).filter(
      (name) => /^[0-9a-f]{2}$/.test(name) && name !== shardOf("urn:warm:0").slice(0, 2),
    );
    const kvBefore = otherBuckets.flatMap((bucket) =>
      kvFiles(bucket).map((f) => statSync(join(`${out}-kv`, bucket, f)).ino),
    );
    write(content, "m0.json", manifest("urn:warm:0", "2026-02-01T00:00:00Z"));
    await warmEqualsCold("one manifest changed");
    const now = statSync(untouched);
    assert.deepEqual([now.ino, now.mtimeMs], [before.ino, before.mtimeMs]);
    assert.ok(otherBuckets.length > 0);
    assert.deepEqual(
      otherBuckets.flatMap((bucket) => kvFiles(bucket).map((f) => statSync(join(`${out}-kv`, bucket, f)).ino)),
      kvBefore,
    );
  });

  it("deletions, additions and a renamed manifest file", async () => {
    rmSync(join(content, "m2.json"));
    write(content, "new/m30.json", manifest("urn:warm:30"));
    renameSync(join(content, "m3.json"), join(content, "renamed-m3.json"));
    await warmEqualsCold("deleted, added, renamed");
  });

  it("a UMID revoked, then redirected, then published again", async () => {
    write(content, "_routes.json", { redirects: [], revoked: [{ umid: "urn:warm:4", reason: "superseded" }] });
    await warmEqualsCold("revoked");
    rmSync(join(content, "m4.json"));
    write(content, "_routes.json", {
      redirects: [{ umid: "urn:warm:4", location: "https://elsewhere.example/m/4" }],
      revoked: [],
    });
    await warmEqualsCold("redirected");
    write(content, "_routes.json", { redirects: [], revoked: [] });
    write(content, "m4.json", manifest("urn:warm:4"));
    await warmEqualsCold("published again");
  });

  it("a case twin arriving renames its twin's body, and leaving renames it back", async () => {
    write(content, "twins/a.json", manifest(twinA));
    await warmEqualsCold("one of the twins");
    write(content, "twins/b.json", manifest(twinB));
    await warmEqualsCold("both twins");
    rmSync(join(content, "twins/b.json"));
    await warmEqualsCold("a twin left");
    rmSync(join(content, "twins"), { recursive: true });
    await warmEqualsCold("both twins left");
  });

  it("content that fails leaves the output as it was, and the next build updates it in place", async () => {
    const before = tree(out);
    // Files an update in place leaves as they are: a body, and the KV files of a bucket m5.json's change does not touch.
    const untouched = [bodyOf(out, "urn:warm:1"), ...kvFilesOutside(`${out}-kv`, shardOf("urn:warm:5").slice(0, 2))];
    const inodes = () => untouched.map((file) => statSync(file).ino);
    const inodesBefore = inodes();
    write(content, "bad.json", { ...manifest("urn:warm:bad"), subject: 7 });
    write(content, "m5.json", manifest("urn:warm:5", "2026-03-01T00:00:00Z"));
    assert.equal((await build(content, out, cache)).status, 1);
    assert.deepEqual(tree(out), before);
    assert.deepEqual(asides(out), []);
    rmSync(join(content, "bad.json"));
    await warmEqualsCold("fixed");
    assert.deepEqual(inodes(), inodesBefore);
  });

  it("takes no KV value from a body altered in the output since a build wrote it", async () => {
    const body = bodyOf(out, "urn:warm:9");
    const served = readFileSync(body, "utf8");
    writeFileSync(body, served.replace("urn:warm:9", "urn:warm:X"));
    // A new status for the same body: its bucket's KV pairs are written again, its value read from the output.
    write(content, "_routes.json", {
      redirects: [],
      revoked: [],
      suspended: [{ umid: "urn:warm:9", suspendedAt: "2026-05-01T00:00:00Z" }],
    });
    const result = await build(content, out, cache);
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stderr, /is not the body its record names/);
    const pairs = kvPairs(`${out}-kv`);
    assert.ok(pairs.every((pair) => !pair.value.includes("urn:warm:X")));
    writeFileSync(body, served);
    await warmEqualsCold("the body put back");
    write(content, "_routes.json", { redirects: [], revoked: [] });
    await warmEqualsCold("no longer suspended");
  });

  it("a KV folder whose update in place was cut short is written whole again", async () => {
    // As the marker is while buckets are rewritten in place: naming no state.
    const marker = join(`${out}-kv`, "resolver-kv.json");
    const named = JSON.parse(readFileSync(marker, "utf8"));
    assert.match(named.state, /^[0-9a-f]{64}$/);
    writeFileSync(marker, JSON.stringify({ ...named, state: null }));
    const bucket = readdirSync(`${out}-kv`).find((name) => /^[0-9a-f]{2}$/.test(name))!;
    rmSync(join(`${out}-kv`, bucket), { recursive: true });
    await warmEqualsCold("KV update cut short");
  });

  it("an output whose state the store does not hold is built whole", async () => {
    // The build info names a state no build kept; the shards it would vouch for are not read, so one is broken too.
    const info = join(out, "resolver.json");
    writeFileSync(info, readFileSync(info, "utf8").replace(/"state": "[0-9a-f]{64}"/, `"state": "${"0".repeat(64)}"`));
    const shard = readdirSync(join(out, "index"))[0]!;
    writeFileSync(join(out, "index", shard), "not a shard");
    write(content, "m6.json", manifest("urn:warm:6", "2026-03-01T00:00:00Z"));
    await warmEqualsCold("a state the store lacks");
  });

  it("an output an earlier version wrote, its state in the folder, is written whole, the state gone", async () => {
    const info = join(out, "resolver.json");
    const { state: _, ...earlier } = JSON.parse(readFileSync(info, "utf8"));
    writeFileSync(info, `${JSON.stringify(earlier, null, 2)}\n`);
    writeFileSync(join(out, "build-state.json"), '{"format":2,"index":3,"files":{}}\n');
    await warmEqualsCold("an earlier version's output");
    assert.equal(existsSync(join(out, "build-state.json")), false);
  });

  it("a body the previous output lacks and the cache cannot give is read again from its file", async () => {
    // The cache recalls m7.json, unchanged; its body is gone from the output and from the cache's blob store.
    rmSync(bodyOf(out, "urn:warm:7"));
    assert.equal(existsSync(join(cache, "blobs")), true);
    rmSync(join(cache, "blobs"), { recursive: true });
    write(content, "_routes.json", { redirects: [], revoked: [{ umid: "urn:warm:7" }] });
    await warmEqualsCold("revoked, body gone");
    write(content, "_routes.json", { redirects: [], revoked: [] });
    await warmEqualsCold("published again, body in neither");
  });
});

describe("build in place: an output and the store its state is kept in, apart", () => {
  const content = join(scratch, "apart-content");
  const cache = join(scratch, "apart-cache");
  for (let i = 0; i < 20; i++) write(content, `m${i}.json`, manifest(`urn:apart:${i}`));
  const revision = (n: number) => {
    for (let i = 0; i < 20; i += 4) write(content, `m${i}.json`, manifest(`urn:apart:${i}`, `2026-0${n}-01T00:00:00Z`));
  };
  const both = (out: string) => ({ out: tree(out), kv: tree(`${out}-kv`) });
  const builtAsCold = async (out: string, cacheDir: string | undefined, what: string) => {
    const result = await build(content, out, cacheDir);
    assert.equal(result.status, 0, `${what}: ${result.stdout}${result.stderr}`);
    assert.deepEqual(both(out), await coldTrees(content), what);
  };

  it("a build without a cache between two with one, and a cache saved before the output's last build", async () => {
    const out = join(scratch, "apart-dist");
    revision(1);
    await builtAsCold(out, cache, "cached");
    // As the store is when a build is killed before its save, or restored from an older run.
    const older = join(scratch, "apart-cache-older");
    cpSync(cache, older, { recursive: true });
    revision(2);
    // Its states are named, and no store holds them.
    await builtAsCold(out, undefined, "without a cache");
    revision(1);
    await builtAsCold(out, cache, "cached after one without");
    revision(2);
    await builtAsCold(out, cache, "cached again");
    rmSync(cache, { recursive: true });
    cpSync(older, cache, { recursive: true });
    revision(1);
    await builtAsCold(out, cache, "a store older than the output");
  });

  it("two outputs sharing one store each update in place, built in turn", async () => {
    const [one, two] = [join(scratch, "apart-turn-one"), join(scratch, "apart-turn-two")];
    revision(1);
    await builtAsCold(one, cache, "one");
    await builtAsCold(two, cache, "two");
    // m1.json never changes: its body's file stays where each output's build wrote it.
    const inodes = () => [one, two].map((out) => statSync(bodyOf(out, "urn:apart:1")).ino);
    const before = inodes();
    for (const n of [2, 3]) {
      revision(n);
      await builtAsCold(one, cache, `one, revision ${n}`);
      await builtAsCold(two, cache, `two, revision ${n}`);
    }
    assert.deepEqual(inodes(), before);
  });

  it("two outputs sharing one store, built in turn and at once", async () => {
    const [one, two] = [join(scratch, "apart-one"), join(scratch, "apart-two")];
    for (const n of [1, 2, 1]) {
      revision(n);
      await builtAsCold(one, cache, `one, revision ${n}`);
      await builtAsCold(two, cache, `two, revision ${n}`);
    }
    revision(3);
    const spawned = (out: string) =>
      runCli(
        ["build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`, "--kv-out", `${out}-kv`],
        scratch,
        { UM_RESOLVER_URL: "", UM_CACHE_DIR: cache },
      );
    const results = await Promise.all([spawned(one), spawned(two)]);
    for (const result of results) assert.equal(result.status, 0, result.stdout + result.stderr);
    const cold = await coldTrees(content);
    assert.deepEqual(both(one), cold);
    assert.deepEqual(both(two), cold);
  });
});

describe("build in place: killed at any instant", () => {
  const content = join(scratch, "killed-content");
  const cache = join(scratch, "killed-cache");
  for (let i = 0; i < 60; i++) write(content, `m${i}.json`, manifest(`urn:killed:${i}`));
  const revision = (n: number) => {
    for (let i = 0; i < 60; i += 3)
      write(content, `m${i}.json`, manifest(`urn:killed:${i}`, `2026-0${n}-01T00:00:00Z`));
  };
  const trees = new Map<number, ReturnType<typeof tree>>();
  const treeOf = async (n: number) => {
    if (!trees.has(n)) {
      revision(n);
      trees.set(n, await coldTree(content));
    }
    return trees.get(n)!;
  };
  const built = async (n: number) => {
    const out = mkdtempSync(join(scratch, "killed-out-"));
    rmSync(out, { recursive: true });
    revision(n);
    assert.equal((await build(content, out, cache)).status, 0);
    return out;
  };

  it("SIGKILL at random moments leaves the old output or the new one, as a cold build writes it", async () => {
    const out = await built(1);
    for (let i = 0; i < 12; i++) {
      const n = 2 + (i % 2);
      revision(n);
      const child = spawn(
        process.execPath,
        [CLI, "build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`, "--kv-out", `${out}-kv`],
        { stdio: "ignore", env: { ...process.env, UM_RESOLVER_URL: "", UM_CACHE_DIR: cache } },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await sleep(150 + Math.random() * 1200);
      child.kill("SIGKILL");
      await exited;
      await recoverOutput(out);
      assert.deepEqual(asides(out), [], `after kill ${i}: leftovers`);
      const now = tree(out);
      let match: number | undefined;
      for (const m of [1, 2, 3]) {
        if (JSON.stringify(await treeOf(m)) !== JSON.stringify(now)) continue;
        match = m;
        break;
      }
      assert.notEqual(match, undefined, `after kill ${i}: an output no cold build writes`);
      revision(n);
    }
    // The KV folder a kill left, whatever it is, is what a cold build writes once the next build has run.
    assert.equal((await build(content, out, cache)).status, 0);
    assert.deepEqual(tree(`${out}-kv`), (await coldTrees(content)).kv);
  });
});
describe("build in place: a decided update is completed, however far it got", () => {
  // What a build leaves when killed after deciding its update: the journal, and the files it writes, staged.
  const decide = (out: string, removed: boolean) => {
    const decided = join(out, "..", `.${basename(out)}.in-place`);
    mkdirSync(join(decided, "staged"), { recursive: true });
    writeFileSync(join(decided, "staged", "0"), "new body");
    writeFileSync(join(decided, "staged", "1"), "new shard");
    const journal = {
      removes: ["m/gone", "m/sub/gone"],
      moves: [{ from: "m/twin", to: "h/twin" }],
      writes: [
        { path: "m/changed", staged: "0" },
        { path: "index/1.json", staged: "1" },
      ],
    };
    writeFileSync(join(decided, "journal.json"), JSON.stringify(journal));
    if (removed) writeFileSync(join(decided, "removed"), "");
  };
  const expected = {
    files: {
      "h/twin": "twin",
      "index/1.json": "new shard",
      "m/changed": "new body",
      "m/kept": "kept",
      "resolver.json": "{}",
    },
    folders: ["h", "index", "m"],
  };
  const output = (files: Record<string, string>) => {
    const out = mkdtempSync(join(scratch, "decided-"));
    for (const folder of ["h", "m"]) mkdirSync(join(out, folder));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(out, path, ".."), { recursive: true });
      writeFileSync(join(out, path), text);
    }
    return out;
  };
  const contents = (out: string) => ({
    files: Object.fromEntries(
      Object.keys(fileDigests(out)).map((path) => [path, readFileSync(join(out, path), "utf8")]),
    ),
    folders: tree(out).folders,
  });
  const old = {
    "m/gone": "gone",
    "m/sub/gone": "gone",
    "m/twin": "twin",
    "m/changed": "old body",
    "m/kept": "kept",
    "index/1.json": "old shard",
    "resolver.json": "{}",
  };

  it("nothing done yet", async () => {
    const out = output(old);
    decide(out, false);
    assert.equal((await recoverOutput(out)).length, 1);
    assert.deepEqual(contents(out), expected);
    assert.deepEqual(asides(out), []);
  });

  it("removals and some moves and writes done", async () => {
    const out = output({
      "h/twin": "twin",
      "m/changed": "new body",
      "m/kept": "kept",
      "index/1.json": "old shard",
      "resolver.json": "{}",
    });
    decide(out, true);
    rmSync(join(out, "..", `.${basename(out)}.in-place`, "staged", "0"));
    await recoverOutput(out);
    assert.deepEqual(contents(out), expected);
  });

  it("all done but clearing the journal away", async () => {
    const out = output(expected.files);
    decide(out, true);
    for (const name of ["0", "1"]) rmSync(join(out, "..", `.${basename(out)}.in-place`, "staged", name));
    await recoverOutput(out);
    assert.deepEqual(contents(out), expected);
    assert.deepEqual(asides(out), []);
  });

  it("all done, killed while the folder was being removed, its journal already gone", async () => {
    // rmSync of the decided folder removes its entries in no set order: the journal can go first.
    const out = output(expected.files);
    decide(out, true);
    rmSync(join(out, "..", `.${basename(out)}.in-place`, "journal.json"));
    await recoverOutput(out);
    assert.deepEqual(contents(out), expected);
    assert.deepEqual(asides(out), []);
  });
});

describe("the KV folder a build replaces", () => {
  const content = join(scratch, "kv-folder-content");
  for (let i = 0; i < 3; i++) write(content, `m${i}.json`, manifest(`urn:kv-folder:${i}`));

  it("is one an earlier version wrote, marked by its state or its first folder of files, or is refused", async () => {
    const out = join(scratch, "kv-folder-dist");
    mkdirSync(join(`${out}-kv`, "kv-0001"), { recursive: true });
    writeFileSync(join(`${out}-kv`, "kv-0001", "kv-0000001.json"), "[]\n");
    assert.equal((await build(content, out, undefined)).status, 0);
    assert.deepEqual(tree(`${out}-kv`), (await coldTrees(content)).kv);
    // The state the folder held before the store kept it.
    const stated = join(scratch, "kv-folder-stated");
    mkdirSync(join(`${stated}-kv`, "00"), { recursive: true });
    writeFileSync(join(`${stated}-kv`, "kv-state.json"), '{"format":3,"index":3,"updating":false,"buckets":{}}\n');
    assert.equal((await build(content, stated, undefined)).status, 0);
    assert.deepEqual(tree(`${stated}-kv`), (await coldTrees(content)).kv);

    const foreign = join(scratch, "kv-folder-foreign");
    mkdirSync(`${foreign}-kv`, { recursive: true });
    writeFileSync(join(`${foreign}-kv`, "notes.txt"), "mine");
    const refused = await build(content, foreign, undefined);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /refusing to replace .*kv-folder-foreign-kv.*holds no resolver-kv\.json/);
    assert.deepEqual(readdirSync(`${foreign}-kv`), ["notes.txt"]);
    // Refused before anything was written.
    assert.equal(existsSync(foreign), false);
  });
});
