/**
 * Scratch git repositories for `check --base REV` (scripts/history/): a content folder, below the repository's top
 * unless told, committed once; the working tree is then changed and checked against that commit. And how the tests
 * read what the check printed: each error at its place, by its rule, naming values.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCliInProcess } from "./cli-in-process.ts";
import type { Finished } from "./processes.ts";
import { printedProblems } from "./problems.ts";

/** The clock every check runs with. */
export const NOW = "2026-06-01T00:00:00Z";
/** The content folder, below the repository's top: git must be asked about the right path. */
export const CONTENT = "site/content";

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export interface Repository {
  root: string;
  /** The commit the content was committed in. */
  base: string;
  write(name: string, value: unknown): void;
  remove(name: string): void;
  /** `check --content CONTENT --now NOW ARGS`, from the repository's top (in this process). */
  check(...args: string[]): Promise<Finished>;
}

let repositories = 0;
/** A repository in `scratch` with `files` in its content folder `content`, committed; `extra` files beside it too. */
export function historyRepository(
  scratch: string,
  files: Record<string, unknown>,
  extra: Record<string, string> = {},
  content = CONTENT,
): Repository {
  const root = join(scratch, `repo-${repositories++}`);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [name, value] of Object.entries(files)) write(join(content, name), json(value));
  for (const [path, text] of Object.entries(extra)) write(path, text);
  const git = (...args: string[]) =>
    execFileSync(
      "git",
      ["-c", "user.name=Test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", ...args],
      { cwd: root, encoding: "utf8" },
    );
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  return {
    root,
    base: git("rev-parse", "HEAD").trim(),
    write: (name, value) => write(join(content, name), typeof value === "string" ? value : json(value)),
    remove: (name) => rmSync(join(root, content, name)),
    // Offline: the fixtures pin a did:web of a host that does not exist.
    check: (...args) => runCliInProcess(["check", "--offline", "--content", content, "--now", NOW, ...args], root),
  };
}

/**
 * Asserts the errors printed, in order: each at its place (`file:line:col`, or the file for
 * one of the file as a whole), by its rule, its message naming each of `named` (UMIDs,
 * places, revisions, statuses, times, the pointer: values, not words).
 */
export function assertErrors(stdout: string, expected: [place: string, rule: string, named: string[]][]): void {
  const errors = printedProblems(stdout).filter((p) => p.severity === "error");
  assert.deepEqual(
    errors.map((p, i) => [
      p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column}`,
      p.rule,
      (expected[i]?.[2] ?? []).filter((value) => !p.message.includes(value)),
    ]),
    expected.map(([place, rule]) => [place, rule, []]),
    stdout,
  );
}
