/**
 * Content with a transparency log (issue 26), as the log tests make it: content folders in one scratch folder that
 * pin one signing key, signed manifests published in them, log keys as PEM files, and the CLI run there (in this
 * process) with a verification cache of its own (warm from the second run on: a cached verdict must not hide a change).
 */
import assert from "node:assert/strict";
import { statusRefFor } from "../../core/validate/status-ref.ts";
import { createPrivateKey } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendEntries } from "../../core/tlog/append.ts";
import { signCheckpoint } from "../../core/tlog/checkpoint.ts";
import { bucketFile, bucketPath, formatLatestLine, latestMap } from "../../core/tlog/latest-map.ts";
import { ed25519Signer, type NoteSigner } from "../../core/tlog/note-signature.ts";
import { FIXTURE_RESOLVER_URL, manifestFor, newKey, pinning, signed } from "./fixture-content.ts";
import { runCliInProcess } from "./cli-in-process.ts";

/** The origin a new log takes from FIXTURE_RESOLVER_URL. */
export const LOG_ORIGIN = "fixture.example:8443/.well-known/manifest-resolver/log";

export interface LogScratch {
  /** The scratch folder: the caller removes it. */
  dir: string;
  /** A log key's PEM file. */
  logKey: string;
  /** A new Ed25519 key's PEM file, `name` in the scratch folder. */
  pem(name: string): string;
  /** The CLI run in the scratch folder, with UM_RESOLVER_URL and the cache set. */
  cli(...args: string[]): ReturnType<typeof runCliInProcess>;
  /** A new content folder, `<name>/content`, whose _keys.json pins the signing key. */
  content(name: string): string;
  /** Writes `file` in the content folder `dir`: a manifest for `umid`, signed. */
  publish(dir: string, file: string, umid: string, extra?: Record<string, unknown>): void;
  /**
   * Content `name` with one UMID logged, then its entry edited in place: the same length, another body's digest, so
   * the bundle parses and hashes to another root.
   */
  loggedThenEdited(name: string): Promise<string>;
  /** What signs checkpoints with the log key: the publisher, or whoever took the key. */
  logSigner(): Promise<NoteSigner>;
}

export function logScratch(prefix: string): LogScratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const signingKey = newKey();
  const pem = (name: string) => {
    const file = join(dir, name);
    writeFileSync(file, newKey().export({ format: "pem", type: "pkcs8" }));
    return file;
  };
  const logKey = pem("log.pem");
  const env = { UM_RESOLVER_URL: FIXTURE_RESOLVER_URL, UM_CACHE_DIR: join(dir, "cache") };
  const cli = (...args: string[]) => runCliInProcess(args, dir, env);
  const content = (name: string) => {
    const folder = join(dir, name, "content");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "_keys.json"), JSON.stringify(pinning(signingKey)));
    return folder;
  };
  // With its statusRef at the fixture's resolver, as sign gives it: a manifest without one is warned of.
  const publish = (folder: string, file: string, umid: string, extra: Record<string, unknown> = {}) => {
    const manifest = signed(manifestFor(umid, extra), signingKey) as { signature: Record<string, unknown> };
    manifest.signature.statusRef = statusRefFor(FIXTURE_RESOLVER_URL, umid);
    writeFileSync(join(folder, file), JSON.stringify(manifest, null, 2));
  };
  const loggedThenEdited = async (name: string) => {
    const folder = content(name);
    publish(folder, "a.json", "urn:a");
    assert.equal((await cli("log", "--key", logKey, "--content", folder)).status, 0);
    const bundle = join(folder, "_log", "tile", "entries", "000.p", "1");
    const edited = readFileSync(bundle);
    const at = edited.indexOf('"sha256":"') + 10;
    edited[at] = edited[at] === 0x41 ? 0x42 : 0x41;
    writeFileSync(bundle, edited);
    return folder;
  };
  const logSigner = async () => {
    const seed = createPrivateKey(readFileSync(logKey)).export({ format: "jwk" }).d!;
    return (await ed25519Signer({ name: LOG_ORIGIN, seed: Buffer.from(seed, "base64url") }))!;
  };
  return { dir, logKey, pem, cli, content, publish, loggedThenEdited, logSigner };
}

/**
 * A log of `entries`, whatever they hold, as the log key signs one (the key holder's own log, or a stolen key's): its
 * checkpoint, tiles and entry bundles, by path under the log's prefix. Given `umids` (the entries' UMIDs, in order),
 * its latest-map line is theirs and it serves their buckets; without, the line names a map of nothing the entries
 * make (for entries no map can be made of).
 */
export async function signedLog(
  signer: NoteSigner,
  entries: readonly Uint8Array[],
  umids?: readonly string[],
): Promise<Map<string, Uint8Array>> {
  const appended = await appendEntries({ read: async () => undefined }, 0, entries);
  const map = umids === undefined ? undefined : await latestMap(umids);
  const latest = map ?? { bits: 0, root: new Uint8Array(32) };
  const checkpoint = { origin: signer.name, size: appended.size, rootHash: appended.rootHash };
  const note = await signCheckpoint({ ...checkpoint, extensions: [formatLatestLine(latest)] }, signer);
  const files = new Map(appended.files);
  files.set("checkpoint", new TextEncoder().encode(note));
  for (let bucket = 0; map !== undefined && bucket < map.buckets.length; bucket++)
    files.set(bucketPath(appended.size, bucket), await bucketFile(map, bucket));
  return files;
}
