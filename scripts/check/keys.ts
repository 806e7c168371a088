/**
 * `_keys.json` of the content root: signing keys pinned by keyRef, checked like any other
 * content file. Only the root's file pins keys (see content-root.ts); when it exists, it
 * closes the world: a keyRef it does not pin is refused (profile-a.ts).
 */
import { isStrongPoint } from "../../core/crypto/ed25519-strict.ts";
import type { KeyPins } from "../../core/crypto/profile-a.ts";
import { ed25519PublicKey } from "../crypto/profile-a.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { SchemaValidators } from "../validate/schema-validator.ts";
import { parseAndValidate } from "../read/source.ts";
import { displayPath, LIST_FILE_SHAPE, LIST_FILE_LIMIT, readSourceText } from "../read/files.ts";

export interface KeysCheck {
  /** The file checked; undefined when there is none (an open world: any embedded key is accepted). */
  file?: string;
  /** The pins, when the file exists, even if some of it is invalid: it still closes the world. */
  pins?: KeyPins;
  /** The pins that are keys, each with where it is in the file. */
  pinned: PinnedKey[];
  diagnostics: Diagnostic[];
}

export interface PinnedKey {
  keyRef: string;
  spki: string;
  where: Pick<Diagnostic, "file" | "pointer" | "line" | "column">;
}

export function checkKeys(path: string, validators: SchemaValidators): KeysCheck {
  const file = displayPath(path);
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    return read.missing
      ? { pinned: [], diagnostics: [] }
      : { file, pins: { file, keys: new Map(), unreadable: true }, pinned: [], diagnostics: [read.diagnostic] };
  return checkKeysText(file, read.text, validators);
}

/** `_keys.json` (shown as `file`) whose text is `text`: `check --base` reads a revision's from git's blob with it. */
export function checkKeysText(file: string, text: string, validators: SchemaValidators): KeysCheck {
  const keys = new Map<string, { spki: string; place: string }>();
  const pins = { file, keys };
  const pinned: PinnedKey[] = [];
  const { value, map, diagnostics } = parseAndValidate(file, text, LIST_FILE_SHAPE, validators.keys);
  if (diagnostics.length > 0 || !isJsonObject(value))
    return { file, pins: { ...pins, unreadable: true }, pinned, diagnostics };

  for (const [keyRef, spki] of Object.entries(value as Record<string, string>)) {
    const pointer = `/${escapePointerToken(keyRef)}`;
    const { line, column } = map!.place(pointer);
    if (ed25519PublicKey(spki) === undefined) {
      diagnostics.push(
        diagnostic(
          "keys/not-ed25519",
          { file, pointer, line, column },
          "is not an Ed25519 SubjectPublicKeyInfo in canonical base64",
        ),
      );
    } else if (!isStrongPoint(Buffer.from(spki, "base64").subarray(-32))) {
      diagnostics.push(
        diagnostic(
          "keys/weak-key",
          { file, pointer, line, column },
          "is a small-order or non-canonically encoded Ed25519 key, for which signatures verify " +
            "without any private key",
        ),
      );
    } else {
      keys.set(keyRef, { spki, place: `${file}:${line}:${column}` });
      pinned.push({ keyRef, spki, where: { file, pointer, line, column } });
    }
  }
  return { file, pins, pinned, diagnostics };
}

/**
 * The one warning of a run that checks manifests with no `_keys.json` to pin their keys
 * (an error under `check --strict`): anyone can sign a manifest with a key of their own.
 */
export function openWorldWarning(file: string, strict: boolean): Diagnostic {
  return diagnostic(
    "keys/none-pinned",
    { file },
    "no _keys.json pins signing keys here, so a manifest signed with any key it embeds is accepted: " +
      "pin yours (manifest-resolver keygen --key-ref KEYREF prints the file)",
    strict ? "error" : "warning",
  );
}
