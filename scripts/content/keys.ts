/** `_keys.json`: signing keys pinned by keyRef, checked like any other content file. */
import { ed25519PublicKey, type PinnedKeys } from "../crypto/profile-a.ts";
import { sourceLocator, type Diagnostic } from "../diagnostics.ts";
import { escapePointerToken, isJsonObject } from "../json/strict-json.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { parseAndValidate } from "./source.ts";
import { displayPath, LIST_FILE_SHAPE, MAX_LIST_FILE_BYTES, readSourceText } from "./files.ts";

export interface KeysCheck {
  /** The file checked, or undefined when there is none. */
  file?: string;
  pinned: PinnedKeys;
  diagnostics: Diagnostic[];
}

export function checkKeys(path: string | undefined, validators: SchemaValidators): KeysCheck {
  const pinned = new Map<string, { spki: string; place: string }>();
  if (path === undefined) return { pinned, diagnostics: [] };
  const file = displayPath(path);
  const read = readSourceText(path, MAX_LIST_FILE_BYTES);
  if ("diagnostic" in read) return { file, pinned, diagnostics: [read.diagnostic] };
  const { value, diagnostics } = parseAndValidate(file, read.text, LIST_FILE_SHAPE, validators.keys);
  if (diagnostics.length > 0 || !isJsonObject(value)) return { file, pinned, diagnostics };

  const locate = sourceLocator(read.text);
  for (const [keyRef, spki] of Object.entries(value as Record<string, string>)) {
    const pointer = `/${escapePointerToken(keyRef)}`;
    const { line, column } = locate(pointer);
    if (ed25519PublicKey(spki) === undefined) {
      diagnostics.push({ severity: "error", file, rule: "keys/not-ed25519", message: "is not an Ed25519 SubjectPublicKeyInfo in canonical base64", pointer, line, column });
    } else {
      pinned.set(keyRef, { spki, place: `${file}:${line}:${column}` });
    }
  }
  return { file, pinned, diagnostics };
}
