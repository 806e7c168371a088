/**
 * What a manifest's verdict read besides its own bytes and the run's settings, so that a
 * cached verdict stands only while that is unchanged: the pin of its keyRef in `_keys.json`
 * (core/crypto/profile-a.ts; a refused keyRef's message names a pin that differs only in
 * case, so an unpinned keyRef reads them all), or, for a payload whose version defines no
 * signature, its opt-in in `_unsigned.json` (unsigned.ts). Pinning a new key, or changing
 * one, re-checks the manifests of that key, not the registry.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { isProfileA, type KeyPins } from "../../core/crypto/profile-a.ts";
import { displayPath } from "../read/files.ts";

/** What was read: the pin of a keyRef (null: a keyRef that is not a string), an opt-in by path, or nothing. */
export type VerdictReads = { pin: string | null } | { unsigned: string } | Record<string, never>;

/**
 * What a run's verdicts may read. The opt-ins are as much of scripts/check/unsigned.ts's as a
 * verdict reads, by their shape: the check uses the cache, never the other way round.
 */
export interface ReadContext {
  pins: KeyPins | undefined;
  unsigned: {
    root?: { dir: string; file: string };
    /** Each opt-in by absolute path: what it covers, compared as JSON. */
    entries: ReadonlyMap<string, unknown>;
  };
}

export function verdictReads(manifest: Record<string, unknown>, verifiable: boolean, path: string): VerdictReads {
  if (!verifiable) return { unsigned: resolve(path) };
  const signature = manifest.signature as Record<string, unknown> | undefined;
  if (!isProfileA(signature)) return {};
  return { pin: typeof signature!.keyRef === "string" ? signature!.keyRef : null };
}

/** What `reads` finds in `context`, as text: equal texts, equal verdicts. */
export function found(reads: VerdictReads, context: ReadContext): string {
  if ("unsigned" in reads) {
    const path = reads.unsigned;
    return JSON.stringify([
      "unsigned",
      path,
      displayPath(path),
      context.unsigned.root ?? null,
      context.unsigned.entries.get(path) ?? null,
    ]);
  }
  if (!("pin" in reads)) return "";
  const { pins } = context;
  if (pins === undefined) return "no pins";
  if (pins.unreadable === true) return JSON.stringify(["unreadable", pins.file]);
  const pin = reads.pin === null ? undefined : pins.keys.get(reads.pin);
  if (pin !== undefined) return JSON.stringify(["pinned", pins.file, reads.pin, pin.spki, pin.place]);
  return JSON.stringify(["unpinned", pins.file, reads.pin, pinsDigest(pins)]);
}

const digests = new WeakMap<KeyPins, string>();

function pinsDigest(pins: KeyPins): string {
  let digest = digests.get(pins);
  if (digest === undefined) {
    digest = createHash("sha256")
      .update(JSON.stringify([...pins.keys]))
      .digest("base64url");
    digests.set(pins, digest);
  }
  return digest;
}
