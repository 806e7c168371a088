/**
 * git's own view of a content folder in a working tree: for each file that matches the
 * index, the id of its blob there. Three git processes, run at once, whatever the folder's
 * size: `rev-parse` (the object format, the top of the working tree), `config` (line-ending
 * conversion) and `ls-files -s -v -m`: every indexed file, its mode, blob id, stage and
 * flags, then again, tagged C, each one whose bytes may differ from its blob. For `-m` git
 * stats every file; where the status no longer matches the index, a file of another size is
 * modified, and one of the same size, or a racily clean one, is compared by its content,
 * so that only a file whose bytes are not its blob's is tagged. (`diff-files`, run beside
 * it before, tagged every file whose status changed, bytes or not, and read the index again.)
 *
 * A file is vouched for only when git's word is about its bytes as they are on disk:
 * - a regular file (not a link, not a submodule), at stage 0 (not in a conflict), with
 *   none of the flags that make git stop looking at it (assume-unchanged,
 *   skip-worktree);
 * - with no conversion between the working tree and the blob: no `.gitattributes`
 *   anywhere that applies (filters, `ident`, `eol`, `working-tree-encoding`), and
 *   `core.autocrlf` off. Where one could apply, git's view is not used at all.
 * Everything else is read.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { git } from "./git-process.ts";

export type GitAlgorithm = "sha1" | "sha256";

export interface GitView {
  algorithm: GitAlgorithm;
  /** The blob id of each file (named relative to the folder, with `/`) whose bytes on disk are that blob's. */
  blobs: ReadonlyMap<string, string>;
}

const ATTRIBUTES = ".gitattributes";
const REGULAR_MODES = new Set(["100644", "100755"]);

/**
 * git's view of the folder `dir`, whose files besides manifests are `others` (relative to it, listed meanwhile), and
 * apart, sooner, its object format: git answers that at once, where the blobs wait for it to stat every file. Each is
 * undefined outside a working tree, without git, or where git converts files.
 */
export function gitView(
  dir: string,
  others: Promise<readonly string[]>,
): { algorithm: Promise<GitAlgorithm | undefined>; view: Promise<GitView | undefined> } {
  // A listing that fails is the caller's to report; here it only means no view, even when none is asked for.
  others.catch(() => undefined);
  const listing = git(dir, ["ls-files", "-s", "-v", "-m", "-z"]);
  // Settled by the view; marked seen at once, so that a failure before the view asks is no unhandled rejection.
  listing.catch(() => undefined);
  const algorithm = (async (): Promise<GitAlgorithm | undefined> => {
    try {
      const [repository, config] = await Promise.all([
        git(dir, ["rev-parse", "--show-object-format", "--show-toplevel", "--git-path", "info/attributes"]),
        git(dir, ["config", "--get-regexp", "^core\\.(autocrlf|attributesfile)$"]),
      ]);
      if (repository.status !== 0) return undefined;
      const [format, top, infoAttributes] = repository.stdout.toString().split("\n");
      if (format !== "sha1" && format !== "sha256") return undefined;
      if (mayConvert(dir, top!, resolve(dir, infoAttributes!), config.stdout.toString(), await others))
        return undefined;
      return format;
    } catch {
      // No git to run: the files are read.
      return undefined;
    }
  })();
  const view = (async (): Promise<GitView | undefined> => {
    const format = await algorithm;
    if (format === undefined) return undefined;
    try {
      const indexed = await listing;
      return indexed.status === 0 ? { algorithm: format, blobs: vouchedBlobs(indexed.stdout.toString()) } : undefined;
    } catch {
      return undefined;
    }
  })();
  return { algorithm, view };
}

/**
 * The blob id of each file `ls-files -s -v -m -z` lists (`listing`) that git vouches for: tagged H, a regular file, at
 * stage 0, and never tagged C (modified: git lists such a file twice, in whichever order its version has). By offsets,
 * not by splitting each record: at 20,000 files, splitting cost 60 ms, this 18.
 */
function vouchedBlobs(listing: string): Map<string, string> {
  const blobs = new Map<string, string>();
  const modified = new Set<string>();
  for (let start = 0; start < listing.length; ) {
    const nul = listing.indexOf("\0", start);
    const end = nul === -1 ? listing.length : nul;
    // "TAG MODE OBJECT STAGE\tPATH"
    const tab = listing.indexOf("\t", start);
    const modeAt = listing.indexOf(" ", start) + 1;
    const objectAt = listing.indexOf(" ", modeAt) + 1;
    const stageAt = listing.indexOf(" ", objectAt) + 1;
    if (tab !== -1 && tab < end && modeAt > 0 && objectAt > modeAt && stageAt > objectAt && stageAt < tab) {
      const name = listing.slice(tab + 1, end);
      const tag = listing.slice(start, modeAt - 1);
      if (tag === "C") {
        modified.add(name);
        blobs.delete(name);
      } else if (
        tag === "H" &&
        REGULAR_MODES.has(listing.slice(modeAt, objectAt - 1)) &&
        listing.slice(stageAt, tab) === "0" &&
        !modified.has(name)
      )
        blobs.set(name, listing.slice(objectAt, stageAt - 1));
    }
    start = end + 1;
  }
  return blobs;
}

/**
 * Whether git may convert a file of `dir` between the working tree and its blob: then the
 * bytes on disk need not be the blob's, and git's view says nothing about them.
 */
function mayConvert(dir: string, top: string, infoAttributes: string, config: string, others: readonly string[]) {
  for (const line of config.split("\n")) {
    const [name, value] = line.split(" ");
    if (name === "core.autocrlf" && value !== "false") return true;
    if (name === "core.attributesfile" && existsSync(resolve(top, value!.replace(/^~(?=\/)/, homedir())))) return true;
  }
  const global = process.env.XDG_CONFIG_HOME
    ? join(process.env.XDG_CONFIG_HOME, "git")
    : join(homedir(), ".config/git");
  const system = process.env.GIT_ATTR_NOSYSTEM ? [] : ["/etc/gitattributes"];
  if ([infoAttributes, join(global, "attributes"), ...system].some((file) => existsSync(file))) return true;
  if (others.some((name) => basename(name) === ATTRIBUTES)) return true;
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, ATTRIBUTES))) return true;
    if (folder === resolve(top) || folder === dirname(folder)) return false;
  }
}
