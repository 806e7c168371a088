/**
 * git's view of a content folder (scripts/read/git-view.ts): outside a working tree, none, and a listing that
 * failed meanwhile is left for the caller to report, never an unhandled rejection that ends the process; inside one,
 * a file is vouched for, by its blob id, exactly when its bytes on disk are that blob's, as git itself judges them.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { gitView } from "../../scripts/read/git-view.ts";

const outside = mkdtempSync(join(tmpdir(), "um-no-git-"));
after(() => rmSync(outside, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], {
    cwd,
    encoding: "utf8",
  });
}

let repositories = 0;
/** A repository whose folder content/ holds a.json and b.json, committed; content/'s path. */
function committed(configure: (root: string) => void = () => undefined): string {
  const root = join(outside, `repository-${++repositories}`);
  const content = join(root, "content");
  mkdirSync(content, { recursive: true });
  git(root, "init", "-q");
  configure(root);
  writeFileSync(join(content, "a.json"), '{"a":1}');
  writeFileSync(join(content, "b.json"), '{"b":1}');
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "content");
  return content;
}

const blobOf = (content: string, name: string) => git(content, "rev-parse", `:./${name}`).trim();
const viewOf = async (content: string) => (await gitView(content, Promise.resolve([])).view)!.blobs;

it("a file whose bytes changed is not vouched for; an untouched one is, by its blob id", async () => {
  const content = committed();
  writeFileSync(join(content, "a.json"), '{"a":12}');
  assert.deepEqual([...(await viewOf(content))], [["b.json", blobOf(content, "b.json")]]);
});

it("a file whose status changed but not its bytes is vouched for: git compared its content", async () => {
  const content = committed();
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(content, "a.json"), later, later);
  assert.equal((await viewOf(content)).get("a.json"), blobOf(content, "a.json"));
});

it("a racily clean file rewritten, its size and status put back, is not vouched for: git's racy rule", async () => {
  // Its modification time no earlier than the index's makes the entry racy; ctime, which a rewrite changes, ignored.
  const future = new Date(Date.now() + 3_600_000);
  const content = committed((root) => git(root, "config", "core.trustctime", "false"));
  utimesSync(join(content, "a.json"), future, future);
  git(content, "add", "a.json");
  writeFileSync(join(content, "a.json"), '{"a":2}');
  utimesSync(join(content, "a.json"), future, future);
  assert.deepEqual([...(await viewOf(content)).keys()], ["b.json"]);
});

it("outside a working tree there is no view, even when the listing it waits for fails", async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    const view = gitView(outside, Promise.reject(new Error("listing failed")));
    assert.equal(await view.algorithm, undefined);
    assert.equal(await view.view, undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off("unhandledRejection", record);
  }
});
