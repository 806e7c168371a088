/**
 * git's view of a content folder (scripts/read/git-view.ts, scripts/read/git-index.ts): none outside a working tree,
 * and a listing that failed meanwhile is left for the caller to report, never an unhandled rejection that ends the
 * process; in one, git's index read as it stands, its racy rule kept, and an index it cannot trust not used at all.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { gitView } from "../../scripts/read/git-view.ts";

const outside = mkdtempSync(join(tmpdir(), "um-no-git-"));
after(() => rmSync(outside, { recursive: true, force: true }));
let repositories = 0;

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

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

/** A repository whose index holds `content/a.json` and `content/b.json`, in index version 2. */
function repository() {
  const root = join(outside, `repo-${++repositories}`);
  const content = join(root, "content");
  mkdirSync(content, { recursive: true });
  writeFileSync(join(content, "a.json"), "{}\n");
  writeFileSync(join(content, "b.json"), "[]\n");
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  return { root, content, index: join(root, ".git", "index") };
}

/** The index with its entry of `name` naming `blob` (hex) instead, its trailing hash made again. */
function indexNaming(index: string, name: string, blob: string): void {
  const bytes = readFileSync(index);
  const at = bytes.indexOf(Buffer.from(`${name}\0`)) - 62;
  Buffer.from(blob, "hex").copy(bytes, at + 40);
  createHash("sha1")
    .update(bytes.subarray(0, bytes.byteLength - 20))
    .digest()
    .copy(bytes, bytes.byteLength - 20);
  writeFileSync(index, bytes);
}

it("vouches for the files whose status is the one the index recorded, by their blob ids", async () => {
  const t = repository();
  // Written a while after the files: no entry is racily clean.
  const later = Date.now() / 1000 + 60;
  utimesSync(t.index, later, later);
  const view = await gitView(t.content, Promise.resolve([]));
  assert.deepEqual(
    view?.blobs,
    new Map([
      ["a.json", git(t.root, "hash-object", "content/a.json")],
      ["b.json", git(t.root, "hash-object", "content/b.json")],
    ]),
  );
  writeFileSync(join(t.content, "b.json"), "[1]\n");
  assert.deepEqual([...((await gitView(t.content, Promise.resolve([])))?.blobs.keys() ?? [])], ["a.json"]);
});

it("keeps git's racy rule: an entry written in the index's tick is vouched for only by its bytes", async () => {
  const t = repository();
  const other = git(t.root, "hash-object", "-w", "--stdin");
  // The entry of a.json names another blob, its status the file's: racily clean, only its bytes can say.
  indexNaming(t.index, "content/a.json", other);
  const { mtime } = statSync(join(t.content, "a.json"));
  utimesSync(t.index, mtime, mtime);
  const view = await gitView(t.content, Promise.resolve([]));
  assert.deepEqual([...(view?.blobs.keys() ?? [])], ["b.json"]);
});

it("does not use an index that does not match its trailing hash", async () => {
  const t = repository();
  const bytes = readFileSync(t.index);
  bytes[bytes.byteLength - 1]! ^= 1;
  writeFileSync(t.index, bytes);
  assert.equal(await gitView(t.content, Promise.resolve([])), undefined);
});
