/**
 * A content folder as git holds it at a revision, read with four git processes whatever
 * its size: two `rev-parse` find the repository and the commit, one `ls-tree -r -z` lists
 * the folder's files and one `cat-file --batch` streams all their blobs (a registry holds
 * 100,000 manifests; a process per file would take minutes). The folder may lie anywhere
 * in its repository: git is run at the repository's top, with the folder's path relative
 * to it.
 */
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { relative, sep } from "node:path";
import { displayPath } from "../read/files.ts";
import { exitOf, git } from "../read/git-process.ts";

/** Why a revision cannot be read: a folder in no git repository, or a revision git cannot resolve. */
export class RevisionError extends Error {}

export interface Revision {
  /** As the user wrote it, to name files as they were there (`content/x.json@main`). */
  name: string;
  commit: string;
  /** The repository's top folder. */
  top: string;
  /** The content folder relative to `top`, with `/` separators; "" for the top itself. */
  folder: string;
}

/** A file of the content folder at a revision. */
export interface TreeFile {
  /** Relative to the content folder, with `/` separators, as `listContent` names files. */
  name: string;
  blob: string;
  size: number;
}

/** The commit `name` means in the repository that holds `contentDir`. */
export async function resolveRevision(contentDir: string, name: string): Promise<Revision> {
  if (!existsSync(contentDir))
    throw new RevisionError(`--base: there is no content folder ${displayPath(contentDir)} to compare`);
  const inRepository = await git(contentDir, ["rev-parse", "--show-toplevel"]).catch((error: Error) => {
    throw new RevisionError(`--base needs git, which cannot be run here: ${error.message}`);
  });
  if (inRepository.status !== 0)
    throw new RevisionError(
      `--base: ${displayPath(contentDir)} is not a folder in a git repository, so ` +
        `there is no revision to compare it with`,
    );
  const top = inRepository.stdout.toString("utf8").replace(/\n$/, "");
  const resolved =
    name === ""
      ? undefined
      : await git(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${name}^{commit}`]);
  if (resolved?.status !== 0) {
    throw new RevisionError(
      `--base: git cannot resolve '${name}' to a commit of ${top} (a shallow clone may ` +
        `lack it: fetch it, or check out with fetch-depth: 0)`,
    );
  }
  const folder = relative(realpathSync(top), realpathSync(contentDir)).split(sep).join("/");
  return { name, commit: resolved.stdout.toString("utf8").trim(), top, folder };
}

/**
 * The regular files under the content folder at the revision, sorted as `listContent` sorts; none if it did not
 * exist. `names`, relative to the content folder: only those files (or those under those folders), when given.
 */
export async function listFolder(revision: Revision, names?: readonly string[]): Promise<TreeFile[]> {
  if (names?.length === 0) return [];
  const prefix = revision.folder === "" ? "" : `${revision.folder}/`;
  const paths = names === undefined ? (prefix === "" ? [] : [prefix]) : names.map((name) => prefix + name);
  const args = ["--literal-pathspecs", "ls-tree", "-r", "-z", "--long", "--full-tree", revision.commit, "--", ...paths];
  const listed = await git(revision.top, args);
  if (listed.status !== 0) throw new Error(`git ls-tree ${revision.commit} failed: ${listed.stderr}`);
  const files: TreeFile[] = [];
  for (const entry of listed.stdout.toString("utf8").split("\0")) {
    // "<mode> <type> <blob> <size>\t<path>"; symbolic links (120000) and submodules are not files.
    const match = /^100[0-7]{3} blob ([0-9a-f]+) +(\d+)\t(.*)$/s.exec(entry);
    if (match === null || !match[3]!.startsWith(prefix)) continue;
    files.push({ blob: match[1]!, size: Number(match[2]), name: match[3]!.slice(prefix.length) });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every blob's bytes, in order, from one `git cat-file --batch` process. */
export async function readBlobs(
  top: string,
  blobs: readonly string[],
  onBlob: (index: number, bytes: Buffer) => void,
): Promise<void> {
  if (blobs.length === 0) return;
  const child = spawn("git", ["-C", top, "cat-file", "--batch", "--buffer"], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    // Each answer: "<blob> blob <size>\n<bytes>\n", or "<blob> missing\n".
    for (let eol = pending.indexOf(10); eol !== -1; eol = pending.indexOf(10)) {
      const header = pending.toString("latin1", 0, eol).split(" ");
      const size = header[1] === "missing" ? -1 : Number(header[2]);
      if (size >= 0 && pending.length < eol + size + 2) break;
      if (size >= 0) onBlob(index, pending.subarray(eol + 1, eol + 1 + size));
      index++;
      pending = pending.subarray(size >= 0 ? eol + size + 2 : eol + 1);
    }
  });
  // An early exit of git is reported by its status below, not as a broken pipe.
  child.stdin.on("error", () => undefined);
  child.stdin.end(blobs.map((blob) => `${blob}\n`).join(""));
  const status = await exitOf(child);
  if (status !== 0 || index !== blobs.length)
    throw new Error(`git cat-file --batch read ${index} of ${blobs.length} blobs: ${stderr}`);
}

/** The bytes of each of the files `names` (relative to the content folder) at the revision; those it lacked are not. */
export async function readFilesAt(revision: Revision, names: readonly string[]): Promise<Map<string, Buffer>> {
  const files = await listFolder(revision, names);
  const read = new Map<string, Buffer>();
  await readBlobs(
    revision.top,
    files.map((file) => file.blob),
    (index, bytes) => read.set(files[index]!.name, Buffer.from(bytes)),
  );
  return read;
}
