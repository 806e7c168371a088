/**
 * `manifest-resolver keygen`: a new Ed25519 key for one role, written outside the repository, and its public half
 * written where that role needs it, so that no step of a publisher's path is a hand edit:
 * - signing: pinned in content/_keys.json, and made the project's signingKeyRef;
 * - log: the log's verifier, content/_log/verifier, and the project's logOrigin;
 * - status-list: the project's statusListKey, with statusLists on;
 * - witness: nothing (a witness's key is named by `witness serve --name`).
 * Whatever can refuse is asked before the key is made: a key written for nothing is one more secret to clean up.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { spkiPublicKey } from "../../core/crypto/profile-a.ts";
import { multikeyMethod } from "../../core/did/did-document.ts";
import { ed25519DidKey } from "../../core/did/did-key.ts";
import { formatVerifierKey } from "../../core/tlog/note-keys.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import { CONFIG_FILE, keyFile, KEY_ROLES, type KeyRole, type Settings } from "../config.ts";
import { editJsonObject } from "../edit/json-object-file.ts";
import { LockTimeout } from "../edit/file-lock.ts";
import { LOG_FOLDER, VERIFIER_FILE } from "../log/log-folder.ts";
import { defaultContentDir, isInside, isRepositoryTop, projectRoot } from "../read/content-root.ts";
import { displayPath, KEYS_FILE, LIST_FILE_LIMIT, LIST_FILE_SHAPE, readSourceText } from "../read/files.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { printable } from "../report/diagnostics.ts";
import { shellWord } from "../report/fix-hints.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { projectSettings } from "./project-settings.ts";
import { chosenFile } from "./deprecated-spelling.ts";
import type { keygen } from "./keygen-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

/** A new key: its private half, and its public half as each role's file names it. */
interface NewKey {
  privateKey: KeyObject;
  /** SubjectPublicKeyInfo, standard base64: what `_keys.json` pins. */
  spki: string;
  publicKey: Uint8Array;
  didKey: string;
  /** The key itself as a keyRef: `did:key:z6Mk…#z6Mk…`. */
  didKeyRef: string;
}

/** Where a role's public half goes, once the private key is written: what was written, or why it could not be. */
type Placement = { lines: string[]; write(): Promise<string[] | string> };

export const runKeygen: CommandRun<typeof keygen> = async (values) => {
  const role = roleOf(values.role);
  if (role !== "signing" && values["key-ref"] !== undefined)
    throw new UsageError(`--key-ref names the keyRef manifests are signed with; a --role ${role} key signs none`);
  const given = chosenFile("keygen", values);
  const settings = projectSettings();
  const file = given ?? keyFile(settings, role);
  const content = defaultContentDir();
  if (isInside(file, content))
    return failed(
      `refusing to write a private key into the content folder (${displayPath(content)}), which is committed ` +
        "and published: choose another --file",
    );
  // As keysDir is held to it (config/keys-in-repository): a key there is one `git add` away from being published.
  const repository = projectRoot();
  if (isRepositoryTop(repository) && isInside(file, repository))
    return failed(
      `refusing to write a private key into the repository (${displayPath(repository)}), where one git add ` +
        "publishes it with its history (config/keys-in-repository): choose a --file outside it",
    );
  const key = newKey();
  const placement =
    role === "signing"
      ? signingKey(key, values["key-ref"], settings, content)
      : role === "log"
        ? logKey(key, settings, content)
        : role === "witness"
          ? witnessKey(file)
          : statusListKey(key, file, settings);
  if (typeof placement === "string") return failed(placement);
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    // "wx": a key that exists is never replaced. A lost key cannot be recovered.
    await writeFile(file, key.privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "EEXIST" ? "it exists; move it away or choose another --file" : (error as Error).message;
    return failed(`cannot write ${file}: ${why}`);
  }
  const written = await placed(placement);
  const lines = [
    `wrote the private key to ${file} (owner-only; keep it secret and out of git)`,
    `public key (SPKI, base64): ${key.spki}`,
    ...(role === "log" || role === "witness" ? [] : [`as a did:key: ${key.didKey} (keyRef ${key.didKeyRef})`]),
    ...(typeof written === "string" ? [] : written),
    ...placement.lines,
  ];
  for (const line of lines) console.log(printable(line));
  if (typeof written === "string") return failed(`${written}; the key is written, its public half is not`);
  return EXIT_OK;
};

/**
 * The public half written, or why not: once the private key is written, a refusal (the file's lock held too long, a
 * folder not writable) must still say where the key went, not end the run before it does.
 */
async function placed(placement: Placement): Promise<string[] | string> {
  try {
    return await placement.write();
  } catch (error) {
    if (error instanceof LockTimeout || (error as NodeJS.ErrnoException).code !== undefined)
      return (error as Error).message;
    throw error;
  }
}

function newKey(): NewKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" }).toString("base64");
  const publicKey = spkiPublicKey(spki)!;
  const didKey = ed25519DidKey(publicKey);
  return { privateKey, spki, publicKey, didKey, didKeyRef: `${didKey}#${didKey.slice("did:key:".length)}` };
}

/**
 * A signing key: pinned under its keyRef in content/_keys.json, and made the project's signingKeyRef. The keyRef is
 * --key-ref, else the project's, else the resolver's did:web (`did:web:<host>#key-1`, whose DID document the build
 * publishes), else the key's own did:key, which any relying party resolves offline.
 */
function signingKey(key: NewKey, given: string | undefined, settings: Settings, content: string): Placement | string {
  const keyRef = given ?? settings.signingKeyRef ?? resolverDidWeb(settings.resolverUrl) ?? key.didKeyRef;
  const keysPath = join(content, KEYS_FILE);
  const keysFile = displayPath(keysPath);
  const advice = [
    ...(keyRef === resolverDidWeb(settings.resolverUrl) ? [] : didWebMethod(keyRef, key.publicKey)),
    "CI secrets: none. Sign before you push (manifest-resolver sign); the build needs no signing key.",
  ];
  // Outside a publisher's repository (a key for receipts, for loose files), the pin is the reader's to place.
  if (!existsSync(content))
    return {
      lines: [
        `no content folder here (${displayPath(content)}); to pin the key in one, add to its ${KEYS_FILE}:`,
        `  ${JSON.stringify(keyRef)}: ${JSON.stringify(key.spki)}`,
        ...advice,
      ],
      write: async () => [],
    };
  const pinned = pinnedKeyRefs(keysPath);
  if (pinned === undefined) return `${keysFile} is not a keys file: fix it first (manifest-resolver check says how)`;
  if (pinned.has(keyRef)) return alreadyPinned(keysFile, keyRef);
  return {
    lines: advice,
    write: async () => {
      // Asked again under the file's lock: another keygen may have pinned it meanwhile.
      const pinned = await editJsonObject(keysPath, settings.lockWaitMs, (pins) =>
        pins[keyRef] !== undefined ? alreadyPinned(keysFile, keyRef) : { ...pins, [keyRef]: key.spki },
      );
      if (!pinned.ok) return pinned.problem;
      const lines = [`pinned it in ${keysFile} as ${JSON.stringify(keyRef)}`];
      if (settings.signingKeyRef === keyRef) return lines;
      const set = await setProject(settings, { signingKeyRef: keyRef }, `signingKeyRef, which sign uses`);
      return typeof set === "string" ? set : [...lines, ...set];
    },
  };
}

function alreadyPinned(keysFile: string, keyRef: string): string {
  return (
    `${keysFile} pins ${JSON.stringify(keyRef)} already: to rotate it, remove that entry and run keygen again; ` +
    "for a key of its own, give keygen another --key-ref"
  );
}

/** The keyRefs a keys file pins: none when it is not there; undefined when it cannot be read as a keys file. */
function pinnedKeyRefs(path: string): Set<string> | undefined {
  if (!existsSync(path)) return new Set();
  const read = readSourceText(path, LIST_FILE_LIMIT);
  const parsed = "text" in read ? parseJson(read.text, LIST_FILE_SHAPE) : undefined;
  return parsed?.ok && isJsonObject(parsed.value) ? new Set(Object.keys(parsed.value)) : undefined;
}

/** A transparency log's key: the log's verifier in content/_log/, named by the project's logOrigin. */
function logKey(key: NewKey, settings: Settings, content: string): Placement | string {
  const host = settings.resolverUrl === "" ? undefined : new URL(settings.resolverUrl).host;
  const origin = settings.logOrigin ?? (host && `${host}${LOG_PREFIX}`);
  if (origin === undefined)
    throw new UsageError(
      `a log's key needs the log's name: set resolverUrl (or logOrigin) in ${CONFIG_FILE}, or UM_RESOLVER_URL`,
    );
  const verifierPath = join(content, LOG_FOLDER, VERIFIER_FILE);
  const verifier = displayPath(verifierPath);
  if (existsSync(verifierPath))
    return `${verifier} names the log's key already: a log keeps its key (log --key with that key appends to it)`;
  return {
    lines: [
      "next, and after each change before you push: manifest-resolver log (from now on check and build refuse " +
        "content the log does not record)",
      "CI secrets: none. The log's key stays with you; relying parties and monitors take the verifier as --log-key.",
    ],
    write: async () => {
      await mkdir(dirname(verifierPath), { recursive: true });
      await writeFileAtomically(verifierPath, `${formatVerifierKey(origin, key.publicKey)}\n`);
      const lines = [`wrote the log's verifier to ${verifier} (commit it): the log is ${origin}`];
      if (settings.logOrigin === origin) return lines;
      const set = await setProject(settings, { logOrigin: origin }, "logOrigin");
      return typeof set === "string" ? set : [...lines, ...set];
    },
  };
}

/** A witness's key: nothing of the project names it; `witness serve` prints its cosigner key, named, to publish. */
function witnessKey(file: string): Placement {
  return {
    lines: [`next: manifest-resolver witness serve --key ${shellWord(file)} --logs FILE --name NAME`],
    write: async () => [],
  };
}

/** The status lists' key: the project's statusListKey, and status lists on. */
function statusListKey(key: NewKey, file: string, settings: Settings): Placement {
  return {
    lines: [
      `CI secret: UM_STATUS_LIST_KEY, the whole text of ${file} (gh secret set UM_STATUS_LIST_KEY < ` +
        `${shellWord(file)}, or your host's environment variables); a build here takes the file itself`,
    ],
    write: async () => {
      return setProject(
        settings,
        { statusListKey: key.didKey, statusLists: true },
        "statusListKey, and statusLists on",
      );
    },
  };
}

/** Sets members of the project's settings file (made if missing): what was set, or why it was not (a string). */
async function setProject(
  settings: Settings,
  members: Record<string, unknown>,
  what: string,
): Promise<string[] | string> {
  const path = join(projectRoot(), CONFIG_FILE);
  const edited = await editJsonObject(path, settings.lockWaitMs, (config) => ({ ...config, ...members }));
  return edited.ok ? [`set in ${displayPath(path)}: ${what}`] : edited.problem;
}

/**
 * The keyRef of a key of the resolver's own DID, `did:web:<host>#key-1`; undefined when no resolver is set, or its
 * host is an IP address, which a did:web cannot name.
 */
function resolverDidWeb(resolverUrl: string): string | undefined {
  if (resolverUrl === "") return undefined;
  const url = new URL(resolverUrl);
  if (isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) return undefined;
  const path = url.pathname.split("/").filter((part) => part !== "");
  return `did:web:${[encodeURIComponent(url.host), ...path].join(":")}#key-1`;
}

/**
 * For a did:web keyRef off the resolver's host, the verification method to list in that DID's did.json (and under
 * its assertionMethod), so that a relying party who resolves the keyRef finds this key.
 */
function didWebMethod(keyRef: string, publicKey: Uint8Array): string[] {
  const method = multikeyMethod(keyRef, publicKey);
  if (!keyRef.startsWith("did:web:") || method.controller === keyRef) return [];
  return [
    `its verification method, for the did.json of ${method.controller} (list "${keyRef}" under assertionMethod ` +
      "too; build publishes that did.json itself when resolverUrl is on its host):",
    `  ${JSON.stringify(method)}`,
  ];
}

function roleOf(given: string): KeyRole {
  if ((KEY_ROLES as readonly string[]).includes(given)) return given as KeyRole;
  throw new UsageError(`--role must be ${KEY_ROLES.join(", ")}, not '${given}'`);
}

function failed(message: string): number {
  console.error(printable(`manifest-resolver: ${message}`));
  return EXIT_FAILED;
}
