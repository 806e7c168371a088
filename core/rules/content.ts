/**
 * Rules of the content folder as a whole: its files (scripts/read/, scripts/check/), one UMID per file, the opt-ins of
 * `_unsigned.json`.
 */
import type { Rule } from "./rule.ts";

export const CONTENT_RULES = {
  "file/unreadable": {
    severity: "error",
    summary: "a file or folder cannot be read, or is not there",
    why:
      "What cannot be read cannot be checked, and what is not checked is not " +
      "published: the build stops rather than publish a partial resolver.",
    source: "manifest-resolver (scripts/read/files.ts)",
    fix: "Check the path (and --content DIR), and the file's permissions; the message gives the system's reason.",
  },
  "file/changed": {
    severity: "error",
    summary: "a file changed while the build read it",
    why:
      "The build publishes what it checked: a manifest edited meanwhile would be " +
      "published unchecked, so the build stops instead.",
    source: "manifest-resolver (scripts/check/check-content.ts)",
    fix: "Build again once nothing edits the content folder.",
  },
  "umid/duplicate": {
    severity: "error",
    summary: "two manifest files have the same @id",
    why:
      "A UMID resolves to one manifest: with two files claiming it, which one a " +
      "resolver serves would depend on the order files are read in.",
    source: "contract 2.1 (@id: globally unique), 3.1",
    fix:
      "Give one of the manifests another @id (a UMID must be globally unique), or " +
      "delete the copy; the message names the other file.",
  },
  "content/private-key": {
    severity: "error",
    summary: "a file in the content folder holds a private key",
    why:
      "The content folder is committed and published: a key found there is in the git " +
      "history already, readable by anyone with the repository, and would let them " +
      "sign as you.",
    source: 'README, "No private keys"',
    fix:
      "Remove the file from the content folder and rotate the key: make a new one with " +
      "manifest-resolver keygen, pin it in _keys.json, and sign your manifests with " +
      "it. Removing the file is not enough.",
  },
  "content/symlink": {
    severity: "error",
    summary: "the content folder holds, or is reached through, a symbolic link",
    why:
      "Git records a link, not the file it points at, while the build reads through " +
      "it: a pull request could change what a linked manifest or _routes.json says " +
      "with nothing for check --base to see.",
    source: 'README, "Content"',
    fix: "Commit the file itself in place of the link.",
  },
  "content/misplaced": {
    severity: "error",
    summary: "a _keys.json, _unsigned.json or _routes.json below the top of the content folder",
    why:
      "Only the top of the content folder configures it: a list file in a folder below " +
      "would be ignored by the build, silently, so it is refused.",
    source: 'README, "One content root"',
    fix: "Move its entries into the file of that name at the top of the content folder, and delete it.",
  },
  "unsigned/path": {
    severity: "error",
    summary: "an _unsigned.json entry is not a file's path below the content root",
    why:
      "An opt-in names one file by its path relative to the content root, with / " +
      "between folders; an absolute path, a backslash, or a . or .. segment could name " +
      "a file outside it, or none.",
    source: 'README, "Older manifest versions"',
    fix: "Write the path relative to the content folder, as check prints it: folder/file.jsonld.",
  },
  "unsigned/stale": {
    severity: "warning",
    summary: "an _unsigned.json entry names a file that is not there",
    why:
      "An opt-in for a file that is gone opts nothing in; left in place, it would " +
      "cover a new file of that name, which no reviewer has seen, if its bytes " +
      "happened to match.",
    source: 'README, "Older manifest versions"',
    fix: "Remove the entry.",
  },
} satisfies Record<string, Rule>;
