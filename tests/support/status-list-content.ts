/**
 * Content whose manifests are signed into status lists (issue 27), as a publisher makes it: a content folder in a
 * scratch folder pinning a signing key kept as a PEM file, unsigned manifests written there, and the CLI run with
 * UM_RESOLVER_URL set, so that `sign --status-list` allocates their entries in `content/_status/`.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_KEY_REF, FIXTURE_RESOLVER_URL, manifestFor, newKey, pinning } from "./fixture-content.ts";
import { runCliInProcess } from "./cli-in-process.ts";
import { runCli } from "./processes.ts";

export interface StatusListScratch {
  /** The scratch folder: the caller removes it. */
  dir: string;
  /** The content folder, `<dir>/content`. */
  content: string;
  /** The signing key's PEM file. */
  keyFile: string;
  /** The CLI run in the scratch folder (in this process) with UM_RESOLVER_URL (and `env`) set. */
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
  /** Writes `<file>` in the content folder: an unsigned manifest for `umid`. */
  write(file: string, umid: string): void;
  /** Signs the content folder (or `files` in it) into status lists. */
  sign(...files: string[]): ReturnType<typeof runCli>;
  /** `sign`, in a process of its own: for runs that meet at the allocation's lock. */
  signApart(...files: string[]): ReturnType<typeof runCli>;
  /** The allocation files, by name, parsed. */
  allocation(): Map<string, { url: string; entries: [number, string][] }>;
  /** The manifest in `file`, parsed. */
  manifest(file: string): { "@id": string; signature: { statusRef: string } };
}

export function statusListScratch(prefix: string): StatusListScratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const content = join(dir, "content");
  mkdirSync(content);
  const key = newKey();
  const keyFile = join(dir, "signing.pem");
  writeFileSync(keyFile, key.export({ format: "pem", type: "pkcs8" }));
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
  const env = { UM_RESOLVER_URL: FIXTURE_RESOLVER_URL, UM_CACHE_DIR: join(dir, "cache") };
  const cli = (args: string[], more: Record<string, string> = {}) => runCliInProcess(args, dir, { ...env, ...more });
  const write = (file: string, umid: string) =>
    writeFileSync(join(content, file), JSON.stringify(manifestFor(umid), null, 2));
  const signing = (files: string[]) => [
    "sign",
    ...(files.length === 0 ? [content] : files.map((file) => join(content, file))),
    "--key",
    keyFile,
    "--key-ref",
    FIXTURE_KEY_REF,
    "--status-list",
    "--content",
    content,
  ];
  const sign = (...files: string[]) => cli(signing(files));
  const signApart = (...files: string[]) => runCli(signing(files), dir, env);
  const allocation = () => {
    const folder = join(content, "_status");
    return new Map(
      readdirSync(folder)
        .filter((name) => name.endsWith(".json"))
        .map((name) => [name, JSON.parse(readFileSync(join(folder, name), "utf8"))]),
    );
  };
  const manifest = (file: string) => JSON.parse(readFileSync(join(content, file), "utf8"));
  return { dir, content, keyFile, cli, write, sign, signApart, allocation, manifest };
}
