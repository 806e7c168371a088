/**
 * The registry's `fix` of a rule (core/rules/), filled in for one problem where one command
 * or one line fixes it, as rustc's "help:" lines say: a manifest edited after signing is
 * signed again (`manifest-resolver sign`, with the keyRef it names); a key no `_keys.json`
 * pins is pinned there (core §5: a relying party trusts keys, not what a manifest
 * embeds). Values come from the manifest, which anyone may have written: the hint says
 * "if", and never runs anything.
 */
import { excerpt, quoted } from "../../core/excerpt.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { Diagnostic } from "./diagnostics.ts";

export function fixHint(d: Diagnostic, text: string | undefined): string | undefined {
  if (d.rule !== "signature/invalid" && d.rule !== "signature/unpinned-key") return undefined;
  const signature = signatureOf(text);
  // A value a hint cannot quote whole is not offered to copy: a cut one would be wrong.
  const whole = (value: unknown) => (typeof value === "string" && excerpt(value) === value ? value : undefined);
  const keyRef = whole(signature?.keyRef);
  if (d.rule === "signature/invalid") {
    return (
      `if you edited it, sign it again: manifest-resolver sign ${shellWord(d.file)} ` +
      `--key <your key> --key-ref ` +
      `${keyRef === undefined ? "KEYREF" : shellWord(keyRef)}`
    );
  }
  if (keyRef === undefined) return undefined;
  const spki = whole(signature?.publicKeySpkiB64) ?? "<its public key, as manifest-resolver keygen prints it>";
  return `if ${quoted(keyRef)} is your key, pin it: add ${quoted(keyRef)}: ${quoted(spki)} to _keys.json`;
}

function signatureOf(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const manifest: unknown = text === undefined ? undefined : JSON.parse(text);
    return isJsonObject(manifest) && isJsonObject(manifest.signature) ? manifest.signature : undefined;
  } catch {
    return undefined;
  }
}

/** `word` as one word of a POSIX shell command line: as it is if nothing in it is special, single-quoted otherwise. */
export function shellWord(word: string): string {
  // "#" starts a comment only at the start of a word; "-" there would read as an option.
  return /^[\w@%+=:,./][\w@%+=:,./#-]*$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
