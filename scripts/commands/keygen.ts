/** `manifest-resolver keygen`: a new Ed25519 signing key. */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { defaultContentDir, isInside } from "../read/content-root.ts";
import { spkiPublicKey } from "../../core/crypto/profile-a.ts";
import { multikeyMethod } from "../../core/did/did-document.ts";
import { ed25519DidKey } from "../../core/did/did-key.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { displayPath, KEYS_FILE, LIST_FILE_SHAPE, LIST_FILE_LIMIT, readSourceText } from "../read/files.ts";
import { printable } from "../report/diagnostics.ts";
import { defineCommand, EXIT_FAILED, EXIT_OK } from "./command.ts";
import { stringOption } from "./options.ts";

const EXAMPLE_KEY_REF = "did:web:you.example#key-1";

export const keygen = defineCommand({
  name: "keygen",
  description: `Writes a new Ed25519 private key as a PKCS#8 PEM file readable by its owner only
(missing folders are made, owner-only too), and prints the public key with what to put
in content/_keys.json to pin it: the whole file when it pins nothing yet, else the entry
to add. It also prints the key's did:key (a keyRef that is the key) and, for a did:web
KEYREF, the verification method to list in that DID's did.json. The private key is never
printed, never written into the repository's content folder (by its real path: not
through a symbolic link either, and not from a folder inside it), and an existing file is
never overwritten. Keep it out of git (*.pem is ignored here) and in your CI's secrets.
A key made here also serves as a transparency log's key (log --key): make one for the log
alone, pin nothing for it, and keep it off CI.`,
  epilogue: `Exit status: 0 written, 1 not written (the file exists, or is in content/), 2 usage error.

Examples:
  manifest-resolver keygen --out ~/.manifest-keys/signing.pem --key-ref did:web:you.example#key-1
  manifest-resolver keygen --out ~/.manifest-keys/log.pem`,
  positionals: [],
  options: {
    out: stringOption({ value: "FILE", help: "where to write the private key", default: "signing-key.pem" }),
    "key-ref": stringOption({
      value: "KEYREF",
      help: "the keyRef you will sign with",
      default: { text: `${EXAMPLE_KEY_REF}, to replace` },
      nonEmpty: true,
    }),
  },
  async run(values) {
    const out = values.out;
    const keyRef = values["key-ref"] ?? EXAMPLE_KEY_REF;
    const content = defaultContentDir();
    if (isInside(out, content)) {
      console.error(
        printable(
          `manifest-resolver: refusing to write a private key into the content folder ` +
            `(${displayPath(content)}), which is committed and published: choose another ` +
            `--out`,
        ),
      );
      return EXIT_FAILED;
    }
    const { privateKey } = generateKeyPairSync("ed25519");
    try {
      await mkdir(dirname(out), { recursive: true, mode: 0o700 });
      // "wx": a key that exists is never replaced. A lost key cannot be recovered.
      await writeFile(out, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      console.error(
        printable(
          `manifest-resolver: cannot write ${out}: ` +
            `${code === "EEXIST" ? "it exists; move it away or choose another --out" : (error as Error).message}`,
        ),
      );
      return EXIT_FAILED;
    }
    const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" }).toString("base64");
    // The key itself as a DID: a keyRef any relying party resolves with no network.
    const publicKey = spkiPublicKey(spki)!;
    const didKey = ed25519DidKey(publicKey);
    const keysFile = displayPath(join(content, KEYS_FILE));
    const entry = `${JSON.stringify(keyRef)}: ${JSON.stringify(spki)}`;
    const replace =
      values["key-ref"] === undefined ? ` (with your keyRef for ${EXAMPLE_KEY_REF}, or run keygen with --key-ref)` : "";
    // Escaped line by line: a name cannot start a line of its own, and JSON's escapes keep
    // the printed pinning valid JSON with the same keyRef.
    const lines = [
      `wrote the private key to ${out} (owner-only; keep it secret and out of git)`,
      `public key (SPKI, base64): ${spki}`,
      `as a did:key: ${didKey} (keyRef ${didKey}#${didKey.slice("did:key:".length)})`,
      ...didWebMethod(keyRef, publicKey),
      ...(pinsAny(join(content, KEYS_FILE))
        ? [`add this entry to ${keysFile}${replace}:`, `  ${entry}`]
        : [`pin it: write ${keysFile}${replace} as`, "{", `  ${entry}`, "}"]),
    ];
    for (const line of lines) console.log(printable(line));
    return EXIT_OK;
  },
});

/**
 * For a did:web keyRef, the verification method to list in that DID's did.json (and under
 * its assertionMethod), so that a relying party who resolves the keyRef finds this key.
 */
function didWebMethod(keyRef: string, publicKey: Uint8Array): string[] {
  const method = multikeyMethod(keyRef, publicKey);
  if (!keyRef.startsWith("did:web:") || method.controller === keyRef) return [];
  return [
    `its verification method, for the did.json of ${method.controller} (list "${keyRef}" under assertionMethod ` +
      "too; build publishes that did.json itself when UM_RESOLVER_URL is on its host):",
    `  ${JSON.stringify(method)}`,
  ];
}

/** Whether a keys file exists with something in it: `init` writes one that pins nothing, to be written whole. */
function pinsAny(path: string): boolean {
  if (!existsSync(path)) return false;
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if (!("text" in read)) return true;
  const parsed = parseJson(read.text, LIST_FILE_SHAPE);
  return !(parsed.ok && isJsonObject(parsed.value) && Object.keys(parsed.value).length === 0);
}
