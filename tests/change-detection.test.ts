/**
 * Change detection without reading (scripts/cache/file-identity.ts, scripts/read/git-view.ts): a warm run knows
 * the files git vouches for, or whose status is unchanged, without opening them, and every answer stays correct:
 * an edit within the same second, a checkout of another branch, a file replaced by a rename, a cache restored
 * from another clone, flags that make git stop looking, conversions between the working tree and the blob.
 * Each run is also compared with a cold one: what a warm run prints is what a cold run prints.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createPublicKey, type KeyObject } from "node:crypto";
import fs, {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { shardEnds } from "../scripts/cache/shard-summaries.ts";
import { VerificationCache } from "../scripts/cache/verification-cache.ts";
import { checkContent } from "../scripts/check/check-content.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { manifestFor, newKey } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { rehash } from "./support/verification-file.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-detect-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
let trees = 0;

const KEY_REF = "did:web:fixture.example#key-a";
const WHOLE_SECOND = 1_700_000_000;
const NAMES = ["a0.json", "a1.json", "a2.json", "sub/b0.json", "sub/b1.json"];
const GIT_ENV = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

function signedText(umid: string, key: KeyObject, extra: Record<string, unknown> = {}): string {
  const manifest = manifestFor(umid, extra);
  return JSON.stringify(
    { ...manifest, signature: signProfileA(manifest, key, KEY_REF, new Date("2026-01-01T00:00:00Z")) },
    null,
    2,
  );
}

/** A content folder of five manifests signed by one pinned key, and a cache folder of its own. */
function tree(key = newKey()) {
  const root = join(scratch, `tree-${++trees}`);
  const content = join(root, "content");
  mkdirSync(join(content, "sub"), { recursive: true });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
  writeFileSync(join(content, "_keys.json"), JSON.stringify({ [KEY_REF]: spki }, null, 2));
  for (const name of NAMES) writeFileSync(join(content, name), signedText(`urn:detect:${name}`, key));
  return { root, content, key, cache: join(root, "cache") };
}

/** The same manifest's text forged: one changed character, the same length, the signature left as it was. */
function forged(text: string): string {
  const forgery = text.replace('"did:web:fixture.example"', '"did:web:fixturE.example"');
  assert.notEqual(forgery, text);
  return forgery;
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/** Makes `root` a repository whose first commit holds the content folder. */
function commitAll(root: string): void {
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "content");
}

/**
 * Checks `content` in this process with the cache in `cacheDir` (saved after), and names the manifest files the
 * check opened: fs.openSync is watched (manifests are read with it; few files are checked on this thread). Run
 * from the folder above it, as the CLI is run, since files are named relative to where a run starts.
 */
async function check(content: string, cacheDir: string) {
  const started = process.cwd();
  process.chdir(dirname(content));
  const opened: string[] = [];
  const openSync = fs.openSync;
  fs.openSync = (...args: Parameters<typeof openSync>) => {
    opened.push(String(args[0]));
    return openSync(...args);
  };
  syncBuiltinESMExports();
  try {
    const cache = new VerificationCache(cacheDir, false);
    const options = { settings: settingsFromEnv({}), now: new Date(), strict: false, cache };
    const result = await checkContent(basename(content), options);
    cache.save();
    const folder = basename(content) + sep;
    const manifests = opened
      .filter((path) => path.startsWith(folder) && !path.includes(`${sep}_`))
      .map((path) => path.slice(folder.length).split(sep).join("/"));
    return { result, opened: [...new Set(manifests)].sort(), rules: result.diagnostics.map((d) => d.rule).sort() };
  } finally {
    fs.openSync = openSync;
    syncBuiltinESMExports();
    process.chdir(started);
  }
}

/** What the CLI prints for `check` of the folder, with the cache in `cacheDir` or none. */
async function printed(root: string, cacheDir: string | undefined) {
  const run = await runCliInProcess(
    ["check", "content", ...(cacheDir === undefined ? ["--no-verification-cache"] : [])],
    root,
    cacheDir === undefined ? {} : { UM_CACHE_DIR: cacheDir },
  );
  // The summary says how many files the cache knew: the one line a warm run may print differently.
  return { status: run.status, stdout: run.stdout.replace(/ \(\d+ manifests? unchanged, from the cache\)/, "") };
}

describe("in a git working tree", () => {
  it("a warm check opens no manifest git's index vouches for, and prints what a cold check prints", async () => {
    const t = tree();
    commitAll(t.root);
    assert.deepEqual((await check(t.content, t.cache)).opened, [...NAMES].sort());
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, []);
    assert.equal(warm.result.recalled, NAMES.length);
    assert.deepEqual(warm.rules, (await check(t.content, join(t.root, "no-cache"))).rules);
    const cliCache = join(t.root, "cli-cache");
    await printed(t.root, cliCache);
    assert.deepEqual(await printed(t.root, cliCache), await printed(t.root, undefined));
  });

  it("a fresh clone with the cache restored from another clone's run opens none either", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const clone = join(scratch, `clone-${++trees}`);
    git(scratch, "clone", "-q", t.root, clone);
    const restored = join(clone, "restored-cache");
    cpSync(t.cache, restored, { recursive: true });
    const warm = await check(join(clone, "content"), restored);
    assert.deepEqual(warm.opened, []);
    assert.equal(warm.result.recalled, NAMES.length);
    assert.deepEqual(warm.rules, []);
  });

  it("a file edited and not committed is read, and judged as it is now; so is a new one", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const path = join(t.content, "a1.json");
    writeFileSync(path, forged(readFileSync(path, "utf8")));
    writeFileSync(join(t.content, "new.json"), signedText("urn:detect:new", t.key));
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["a1.json", "new.json"]);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
  });

  for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
    it(`a file marked ${flag} is read: git no longer looks at it, so its word says nothing`, async () => {
      const t = tree();
      commitAll(t.root);
      await check(t.content, t.cache);
      git(t.content, "update-index", flag, "a2.json");
      const path = join(t.content, "a2.json");
      writeFileSync(path, forged(readFileSync(path, "utf8")));
      assert.equal(git(t.content, "diff-files", "--name-only"), "", "git itself sees no change");
      const warm = await check(t.content, t.cache);
      assert.deepEqual(warm.opened, ["a2.json"]);
      assert.deepEqual(warm.rules, ["signature/invalid"]);
    });
  }

  it("a checkout of another branch: the files it changes are judged as that branch has them", async () => {
    const t = tree();
    commitAll(t.root);
    git(t.root, "checkout", "-q", "-b", "forgery");
    const path = join(t.content, "sub", "b0.json");
    writeFileSync(path, forged(readFileSync(path, "utf8")));
    git(t.root, "commit", "-q", "-am", "forged");
    git(t.root, "checkout", "-q", "main");
    assert.deepEqual((await check(t.content, t.cache)).rules, []);
    git(t.root, "checkout", "-q", "forgery");
    const forgery = await check(t.content, t.cache);
    assert.deepEqual(forgery.opened, ["sub/b0.json"]);
    assert.deepEqual(forgery.rules, ["signature/invalid"]);
    git(t.root, "checkout", "-q", "main");
    const back = await check(t.content, t.cache);
    assert.deepEqual(back.opened, [], "both versions are known by their blob ids now");
    assert.deepEqual(back.rules, []);
    git(t.root, "checkout", "-q", "forgery");
    assert.deepEqual((await check(t.content, t.cache)).rules, ["signature/invalid"]);
  });

  it("a file replaced by a rename is read", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const path = join(t.content, "a0.json");
    writeFileSync(join(t.content, ".next"), forged(readFileSync(path, "utf8")));
    renameSync(join(t.content, ".next"), path);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["a0.json"]);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
  });

  it("where .gitattributes may convert files, git's view is not used: every file is read", async () => {
    const t = tree();
    writeFileSync(join(t.root, ".gitattributes"), "*.json ident\n");
    commitAll(t.root);
    await check(t.content, t.cache);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, [...NAMES].sort());
    assert.equal(warm.result.recalled, NAMES.length, "found by their bytes instead");
  });
});

describe("shard summaries, in a git working tree", () => {
  const summaries = (cache: string) =>
    readdirSync(join(cache, "summaries")).map((name) => join(cache, "summaries", name));

  it("a warm check takes a shard whole from its summary, recalling no entry of the cache file", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    assert.ok(summaries(t.cache).length > 0);
    // The entries of the cache file made unreadable, their lengths kept (its digest made again): only the summaries
    // can know the files.
    const file = join(t.cache, "verification.json");
    const damaged = readFileSync(file, "latin1").replaceAll('["urn:detect:', "[1urn:detect:");
    writeFileSync(file, damaged, "latin1");
    rehash(file);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, []);
    assert.equal(warm.result.recalled, NAMES.length);
    assert.deepEqual(warm.rules, []);
  });

  it("a cold check on worker threads, which start before git lists the files, makes every shard's summary", async () => {
    // Past WORKER_THRESHOLD: the workers check while git's listing, which only the summaries read, is still coming.
    const t = tree();
    const count = 1_100;
    for (let i = 0; i < count; i++) {
      const name = `many/m${String(i).padStart(4, "0")}.json`;
      mkdirSync(dirname(join(t.content, name)), { recursive: true });
      writeFileSync(join(t.content, name), signedText(`urn:detect:${name}`, t.key));
    }
    commitAll(t.root);
    const cold = await check(t.content, t.cache);
    assert.equal(cold.result.recalled, 0);
    assert.ok(summaries(t.cache).length > 0);
    const file = join(t.cache, "verification.json");
    writeFileSync(file, readFileSync(file, "latin1").replaceAll('["urn:detect:', "[1urn:detect:"), "latin1");
    rehash(file);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, [], "every file known from its shard's summary");
    assert.equal(warm.result.recalled, NAMES.length + count);
    assert.deepEqual(warm.rules, []);
  });

  it("a damaged cache file is a cold run, summaries included, as a foreign one is", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const file = join(t.cache, "verification.json");
    truncateSync(file, statSync(file).size - 10);
    const damaged = await check(t.content, t.cache);
    assert.equal(damaged.result.recalled, 0);
    assert.deepEqual(damaged.opened, [...NAMES].sort());
    assert.equal((await check(t.content, t.cache)).result.recalled, NAMES.length);
  });

  it("a summary that does not match its digest is not used: its files are known one by one", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    for (const path of summaries(t.cache))
      writeFileSync(path, readFileSync(path, "utf8").replaceAll('"urn:detect:a', '"urn:detect:x'));
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, []);
    assert.equal(warm.result.recalled, NAMES.length);
    assert.deepEqual(
      warm.result.files.map((f) => f.umid).filter((umid) => umid?.startsWith("urn:detect:x")),
      [],
    );
  });

  it("a changed pin: a summary whose entries read it stands no longer", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const other = createPublicKey(newKey()).export({ format: "der", type: "spki" }).toString("base64");
    writeFileSync(join(t.content, "_keys.json"), JSON.stringify({ [KEY_REF]: other }, null, 2));
    const warm = await check(t.content, t.cache);
    assert.equal(warm.result.recalled, 0);
    assert.deepEqual(warm.rules, (await check(t.content, join(t.root, "no-cache"))).rules);
    assert.equal(warm.rules.length, NAMES.length);
  });

  it("a file changed and committed: its shard's latest summary knows the others", async () => {
    const t = tree();
    commitAll(t.root);
    await check(t.content, t.cache);
    const path = join(t.content, "sub", "b0.json");
    writeFileSync(path, forged(readFileSync(path, "utf8")));
    git(t.root, "commit", "-q", "-am", "forged");
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["sub/b0.json"]);
    assert.equal(warm.result.recalled, NAMES.length - 1);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
    const again = await check(t.content, t.cache);
    assert.deepEqual(again.opened, []);
    assert.deepEqual(again.rules, ["signature/invalid"]);
  });

  it("a file changed and not committed, even before the first run: its shard's summary knows the others", async () => {
    const t = tree();
    commitAll(t.root);
    const path = join(t.content, "sub", "b0.json");
    const text = readFileSync(path, "utf8");
    writeFileSync(path, forged(text));
    assert.deepEqual((await check(t.content, t.cache)).opened, [...NAMES].sort());
    // Changed again, still not committed; the cache file's entries unreadable: only a summary can know the others.
    writeFileSync(path, forged(text).replace('"did:web:fixturE.example"', '"did:web:fixtuRE.example"'));
    const file = join(t.cache, "verification.json");
    writeFileSync(file, readFileSync(file, "latin1").replaceAll('["urn:detect:', "[1urn:detect:"), "latin1");
    rehash(file);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["sub/b0.json"]);
    assert.equal(warm.result.recalled, NAMES.length - 1);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
    // As committed again, but git's index not refreshed: read once more, and valid.
    writeFileSync(path, text);
    const restored = await check(t.content, t.cache);
    assert.deepEqual(restored.opened, ["sub/b0.json"]);
    assert.deepEqual(restored.rules, []);
  });

  it("shards are cut by their names: a file added or removed moves no cut but beside it", () => {
    const names = Array.from({ length: 20000 }, (_, i) => `${String(i % 97).padStart(3, "0")}/${i}.json`).sort();
    const cuts = (list: string[]) => new Set([...shardEnds(list)].map((end) => list[end - 1]));
    const before = cuts(names);
    const added = [...names, "050/new.json"].sort();
    const after = cuts(added.filter((name) => name !== names[1234]));
    const moved =
      [...before].filter((name) => !after.has(name)).length + [...after].filter((n) => !before.has(n)).length;
    assert.ok(before.size > 40, `${before.size} shards`);
    assert.ok(moved <= 4, `${moved} cuts moved`);
  });
});

describe("outside git, by the files' status", () => {
  // A file's status vouches for it only once its times are older than the racy window (3 s): the trees wait once.
  const prepared: Record<string, ReturnType<typeof tree>> = {};
  before(async () => {
    for (const name of ["warm", "same-second", "racy", "rename", "copy"]) prepared[name] = tree();
    // Whole seconds, which utimes can put back exactly.
    for (const name of NAMES) utimesSync(join(prepared["same-second"]!.content, name), WHOLE_SECOND, WHOLE_SECOND);
    await sleep(3200);
  });

  it("a warm check opens no file whose status is unchanged, and prints what a cold check prints", async () => {
    const t = prepared.warm!;
    assert.equal((await check(t.content, t.cache)).opened.length, NAMES.length);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, []);
    assert.equal(warm.result.recalled, NAMES.length);
    const cliCache = join(t.root, "cli-cache");
    await printed(t.root, cliCache);
    assert.deepEqual(await printed(t.root, cliCache), await printed(t.root, undefined));
  });

  it("an edit within the same second, its size and modification time put back, is read", async () => {
    const t = prepared["same-second"]!;
    await check(t.content, t.cache);
    const path = join(t.content, "a1.json");
    const before = statSync(path, { bigint: true });
    writeFileSync(path, forged(readFileSync(path, "utf8")));
    utimesSync(path, WHOLE_SECOND, WHOLE_SECOND);
    const after = statSync(path, { bigint: true });
    assert.deepEqual([after.size, after.mtimeNs, after.ino], [before.size, before.mtimeNs, before.ino]);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["a1.json"]);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
  });

  it("a file modified no earlier than the run that read it is read again by the next: its status cannot vouch", async () => {
    const t = prepared.racy!;
    await check(t.content, t.cache);
    const path = join(t.content, "a1.json");
    writeFileSync(path, readFileSync(path));
    // Later than any run's clock, however slow the machine: a time the racy rule must refuse.
    const later = Date.now() / 1000 + 3600;
    utimesSync(path, later, later);
    const first = await check(t.content, t.cache);
    assert.deepEqual(first.opened, ["a1.json"]);
    assert.equal(first.result.recalled, NAMES.length, "the same bytes: found by them");
    assert.deepEqual((await check(t.content, t.cache)).opened, ["a1.json"]);
  });

  it("a file replaced by a rename is read", async () => {
    const t = prepared.rename!;
    await check(t.content, t.cache);
    const path = join(t.content, "sub", "b1.json");
    const { atime, mtime } = statSync(path);
    writeFileSync(join(t.content, ".next"), forged(readFileSync(path, "utf8")));
    utimesSync(join(t.content, ".next"), atime, mtime);
    renameSync(join(t.content, ".next"), path);
    const warm = await check(t.content, t.cache);
    assert.deepEqual(warm.opened, ["sub/b1.json"]);
    assert.deepEqual(warm.rules, ["signature/invalid"]);
  });

  it("a copy with its times kept, and the cache of the original: every file is read, and found by its bytes", async () => {
    const t = prepared.copy!;
    await check(t.content, t.cache);
    const copy = join(scratch, `copy-${++trees}`, "content");
    cpSync(t.content, copy, { recursive: true, preserveTimestamps: true });
    const warm = await check(copy, t.cache);
    assert.deepEqual(warm.opened, [...NAMES].sort());
    assert.equal(warm.result.recalled, NAMES.length);
    assert.deepEqual(warm.rules, []);
  });
});
