/** `manifest-resolver sign`: fill in a manifest's Profile A signature. */
import { createPublicKey, type KeyObject } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { settingsFromEnv, type Settings } from "../config.ts";
import { checkRootFiles } from "../check/check-content.ts";
import { withFileLock } from "../edit/file-lock.ts";
import { isInside } from "../read/content-root.ts";
import { checkManifestText } from "../check/manifest-check.ts";
import { displayPath, listContent, manifestByteLimit, readSourceText } from "../read/files.ts";
import { detectStyle, formatJson } from "../edit/json-file.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { parseAndValidate } from "../read/source.ts";
import { NO_OPT_INS } from "../check/unsigned.ts";
import { loadPrivateKey, signProfileA } from "../crypto/profile-a.ts";
import { diagnostic, hasErrors, printable, printableFile } from "../report/diagnostics.ts";
import { printDiagnostics } from "../report/problem-report.ts";
import { formatDiagnostic } from "../report/text.ts";
import { quoted } from "../../core/excerpt.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { allocateStatusEntries } from "../edit/status-allocation.ts";
import { baseUrlProblem } from "../../core/client/base-url.ts";
import { statusRefFor } from "../../core/validate/status-ref.ts";
import { schemaValidators, type SchemaValidators } from "../validate/schema-validator.ts";
import { defineCommand, EXIT_FAILED, EXIT_OK, UsageError } from "./command.ts";
import { CONTENT_OPTION } from "./content-option.ts";
import { booleanOption, stringOption } from "./options.ts";
import { appendAll } from "../../core/append-all.ts";

export const sign = defineCommand({
  name: "sign",
  description: `Fills in each manifest's signature (a DIR: every manifest file in it, as build finds them) (Ed25519 over the JCS canonical manifest, with
publicKeySpkiB64 and created) and rewrites the file in its own indentation style. With
--status-base (or UM_RESOLVER_URL), also its statusRef: the manifest's status URL at that
resolver, where relying parties check whether it was revoked or suspended. With
--status-list, the statusRef is instead an entry of a status list at that resolver
(<list URL>#<index>): one list serves many manifests, so fetching it tells the resolver
nothing of which one a relying party checks. Each UMID gets an entry at random, kept in
the content folder's _status/ (and keeps it when signed again); build publishes the lists.
Refuses a file that fails validation for any other reason than its signature, and, for
a file in the content folder that has a _keys.json, a KEYREF it does not pin or a key
whose public half is not the one pinned for KEYREF; other files are still signed.`,
  epilogue: `Exit status: 0 all signed, 1 a file refused or the key unusable, 2 usage error.

Example:
  manifest-resolver sign content/people --key tests/fixtures/sample-signing-key.TEST-ONLY.pem --key-ref did:web:localhost%3A8787#test-key-1`,
  positionals: [{ name: "FILE|DIR", required: true, repeatable: true }],
  options: {
    key: stringOption({
      value: "PEM",
      help: "the Ed25519 private key (PKCS#8 PEM, as keygen writes it)",
      required: true,
    }),
    "key-ref": stringOption({
      value: "KEYREF",
      help: "the signature's keyRef, e.g. did:web:you.example#key-1",
      required: true,
      nonEmpty: true,
    }),
    "status-base": stringOption({
      value: "URL",
      help:
        "the resolver that will serve these manifests (https:, or http: to a loopback " +
        "host; no credentials, query or fragment): statusRef becomes " +
        "URL/.well-known/manifest-resolver/status/{UMID}",
      default: { text: "UM_RESOLVER_URL; neither: statusRef is kept" },
    }),
    "status-list": booleanOption({
      help:
        "give each manifest an entry of a status list at the status base (allocated in " +
        "the content folder's _status/) as its statusRef, instead of its own status URL",
    }),
    content: { ...CONTENT_OPTION.content, help: "the content folder" },
  },
  async run(values, [paths]) {
    const keyRef = values["key-ref"];
    const key = await loadPrivateKey(values.key);
    if (typeof key === "string") {
      console.error(`manifest-resolver: ${key}`);
      return EXIT_FAILED;
    }
    const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
    const settings = settingsFromEnv();
    const statusBase = values["status-base"] ?? settings.resolverUrl;
    // A base a client cannot fetch from (credentials, a query, a fragment) would write statusRefs none resolves.
    const baseProblem = statusBase === "" ? undefined : baseUrlProblem(statusBase);
    if (baseProblem !== undefined)
      throw new UsageError(
        `${values["status-base"] !== undefined ? "--status-base" : "UM_RESOLVER_URL"} ${baseProblem}`,
      );
    const statusList = values["status-list"] === true;
    if (statusList && statusBase === "")
      throw new UsageError(
        "--status-list needs the resolver that serves the lists: --status-base URL or UM_RESOLVER_URL",
      );
    const validators = schemaValidators(settings.contextUrl, settings.resolverUrl);
    const files = await manifestFiles(paths);
    // Allocated for the whole run at once, and written before any manifest that names an entry.
    const allocated = statusList ? await allocateForFiles(files, values.content, statusBase, settings) : undefined;
    if (allocated !== undefined && !(allocated instanceof Map)) {
      printDiagnostics(allocated.diagnostics, (line) => console.log(line));
      console.log(`0 of ${files.length} signed: fix the status list allocation first.`);
      return EXIT_FAILED;
    }
    const statusRefOf = (umid: string) =>
      statusBase === "" ? undefined : (allocated?.get(umid) ?? statusRefFor(statusBase, umid));
    let refused = 0;
    for (const path of files) {
      const problem = await signFile(path, { key, spki, keyRef, statusRefOf }, values.content, settings, validators);
      if (problem !== undefined) {
        refused++;
        // Problems on stdout, as check and build print them (docs/commands.md, "How problems are printed").
        for (const line of problem) console.log(line);
      }
    }
    if (refused > 0) console.log(`${refused} of ${files.length} not signed.`);
    return refused > 0 ? EXIT_FAILED : EXIT_OK;
  },
});

/**
 * FILEs as given, and for each DIR the manifest files in it (the build's rule: files.ts); a DIR with none is a usage
 * error.
 */
async function manifestFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      files.push(path);
      continue;
    }
    const { manifests } = await listContent(path);
    if (manifests.length === 0)
      throw new UsageError(`${path} holds no manifest file (*.json or *.jsonld, not starting with _)`);
    appendAll(
      files,
      manifests.map((name) => join(path, name)),
    );
  }
  return files;
}

/** The statusRefs of the manifests in `files` (by the @id each holds now) in the allocation of `contentDir`. */
async function allocateForFiles(
  files: readonly string[],
  contentDir: string,
  statusBase: string,
  settings: Settings,
): ReturnType<typeof allocateStatusEntries> {
  const umids: string[] = [];
  for (const path of files) {
    const read = readSourceText(path, manifestByteLimit(settings.limits));
    // A file that cannot be read or parsed is refused when it is signed: it needs no entry.
    const parsed = "diagnostic" in read ? undefined : parseJson(read.text, settings.limits);
    const id = parsed?.ok && isJsonObject(parsed.value) ? parsed.value["@id"] : undefined;
    if (typeof id === "string" && id !== "") umids.push(id);
  }
  return allocateStatusEntries(contentDir, umids, {
    statusBase,
    resolverUrl: settings.resolverUrl,
    lockWaitMs: settings.lockWaitMs,
  });
}

/** Signs one file in place; the reason it was refused otherwise, already formatted. */
async function signFile(
  path: string,
  {
    key,
    spki,
    keyRef,
    statusRefOf,
  }: { key: KeyObject; spki: string; keyRef: string; statusRefOf: (umid: string) => string | undefined },
  contentDir: string,
  settings: Settings,
  validators: SchemaValidators,
): Promise<string[] | undefined> {
  const file = displayPath(path);
  // The file is read, signed and written back under its lock, as every edit of content is.
  return withFileLock(path, settings.lockWaitMs, async () => {
    const read = readSourceText(path, manifestByteLimit(settings.limits));
    if ("diagnostic" in read) return [formatDiagnostic(read.diagnostic)];
    const parsed = parseAndValidate(file, read.text, settings.limits, () => []);
    if (hasErrors(parsed.diagnostics)) return parsed.diagnostics.map(formatDiagnostic);
    if (!isJsonObject(parsed.value))
      return [formatDiagnostic(diagnostic("sign/not-object", { file }, "a manifest is a JSON object"))];

    // Judged by the content root's files, as check and build judge it.
    const root = isInside(path, contentDir)
      ? checkRootFiles(contentDir, { settings, now: new Date(), strict: false }, validators)
      : undefined;
    const rootErrors =
      root?.checked.flatMap((checked) => checked.diagnostics).filter((d) => d.severity === "error") ?? [];
    if (rootErrors.length > 0) return rootErrors.map(formatDiagnostic);
    const context = root?.context ?? {
      settings,
      now: new Date(),
      strict: false,
      pins: undefined,
      unsigned: NO_OPT_INS,
    };
    const pin = context.pins?.keys.get(keyRef);
    if (pin !== undefined && pin.spki !== spki) {
      const message =
        `refusing to sign with this key: keyRef ${quoted(keyRef)} is pinned to another ` + `key at ${pin.place}`;
      return [formatDiagnostic(diagnostic("sign/key-not-pinned", { file }, message))];
    }

    // The signature replaces the old one in place (keeping members such as statusRef) or
    // goes last; everything else keeps its order.
    const manifest = parsed.value;
    const previous = isJsonObject(manifest.signature) ? manifest.signature : {};
    const ref = typeof manifest["@id"] === "string" ? statusRefOf(manifest["@id"]) : undefined;
    const statusRef = ref === undefined ? {} : { statusRef: ref };
    const signature = { ...previous, ...signProfileA(manifest, key, keyRef), ...statusRef };
    const signed =
      "signature" in manifest
        ? Object.fromEntries(Object.entries(manifest).map(([k, v]) => [k, k === "signature" ? signature : v]))
        : { ...manifest, signature };
    const text = formatJson(signed, detectStyle(read.text));

    const check = checkManifestText(file, text, context, path);
    if (hasErrors(check.diagnostics)) {
      return [
        ...check.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic),
        `${printableFile(file)} was not signed: fix the problems above first.`,
      ];
    }
    printDiagnostics(check.diagnostics, (line) => console.log(line));
    await writeFileAtomically(path, text);
    console.log(printable(`signed ${printableFile(file)} (keyRef ${keyRef})`));
    return undefined;
  });
}
