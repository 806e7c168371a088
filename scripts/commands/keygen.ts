/**
 * `manifest-resolver keygen`: a new Ed25519 key, and what to do with it for its role. A
 * signing key is pinned in content/_keys.json; the log's key and the status lists' key
 * are pinned nowhere there (a second entry under the signing keyRef is json/duplicate-key,
 * and a pin would let the key sign manifests), so their advice is where each is given.
 */
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
import { shellWord } from "../report/fix-hints.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { EXAMPLE_KEY_REF, type keygen } from "./keygen-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

const ROLES = ["signing", "log", "status-list"] as const;
type Role = (typeof ROLES)[number];

export const runKeygen: CommandRun<typeof keygen> = async (values) => {
  const out = values.out;
  const role = roleOf(values.role);
  if (role !== "signing" && values["key-ref"] !== undefined)
    throw new UsageError(`--key-ref names the keyRef manifests are signed with; a --role ${role} key signs none`);
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
  const didKeyRef = `${didKey}#${didKey.slice("did:key:".length)}`;
  const keysFile = displayPath(join(content, KEYS_FILE));
  // Escaped line by line: a name cannot start a line of its own, and JSON's escapes keep
  // the printed pinning valid JSON with the same keyRef.
  const lines = [
    `wrote the private key to ${out} (owner-only; keep it secret and out of git)`,
    `public key (SPKI, base64): ${spki}`,
    ...(role === "log" ? [] : [`as a did:key: ${didKey} (keyRef ${didKeyRef})`]),
    ...(role === "signing"
      ? [
          ...didWebMethod(keyRef, publicKey),
          ...pinning(keysFile, pinnedKeyRefs(join(content, KEYS_FILE)), keyRef, spki, values["key-ref"] === undefined),
        ]
      : role === "log"
        ? [
            `a transparency log's key: pin it nowhere (not in ${keysFile}) and keep it off CI; after each change, ` +
              "before pushing, run:",
            `  npx manifest-resolver log --key ${shellWord(out)}`,
            "then give relying parties and monitors content/_log/verifier, the log's public key, where they take " +
              "their trust from (never from the log)",
          ]
        : [
            `the status lists' key: pin it nowhere in ${keysFile}; give it to the build (a CI secret), as`,
            `  UM_STATUS_LIST_KEY=${shellWord(out)} npm run build`,
            `relying parties that pin it give its keyRef ${didKeyRef} with its public key in resolve --keys ` +
              "FILE, or the library's keys",
          ]),
  ];
  for (const line of lines) console.log(printable(line));
  return EXIT_OK;
};

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

function roleOf(given: string): Role {
  if ((ROLES as readonly string[]).includes(given)) return given as Role;
  throw new UsageError(`--role must be ${ROLES.join(", ")}, not '${given}'`);
}

/**
 * The keyRefs a keys file pins: none when it is missing or `{}` (`init` writes one that
 * pins nothing, to be written whole); undefined when it cannot be read as a keys file.
 */
function pinnedKeyRefs(path: string): Set<string> | undefined {
  if (!existsSync(path)) return new Set();
  const read = readSourceText(path, LIST_FILE_LIMIT);
  const parsed = "text" in read ? parseJson(read.text, LIST_FILE_SHAPE) : undefined;
  return parsed?.ok && isJsonObject(parsed.value) ? new Set(Object.keys(parsed.value)) : undefined;
}

/**
 * How to pin a signing key: the whole file when it pins nothing, the entry to add when it
 * pins others, and when it pins the keyRef already (to another key), how to rotate it:
 * an entry added beside the pin would be a duplicate member.
 */
function pinning(
  keysFile: string,
  pinned: Set<string> | undefined,
  keyRef: string,
  spki: string,
  exampleKeyRef: boolean,
): string[] {
  const entry = `${JSON.stringify(keyRef)}: ${JSON.stringify(spki)}`;
  const replace = exampleKeyRef ? ` (with your keyRef for ${EXAMPLE_KEY_REF}, or run keygen with --key-ref)` : "";
  if (pinned?.has(keyRef))
    return [
      `${keysFile} pins ${JSON.stringify(keyRef)} already: to rotate it to this key, replace its value there with ` +
        `${JSON.stringify(spki)}; for a key of its own, run keygen again with its --key-ref (a log's or ` +
        "status lists' key: --role)",
    ];
  if (pinned?.size === 0) return [`pin it: write ${keysFile}${replace} as`, "{", `  ${entry}`, "}"];
  return [`add this entry to ${keysFile}${replace}:`, `  ${entry}`];
}
