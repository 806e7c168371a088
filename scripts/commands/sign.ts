/** `manifest-resolver sign`: fill in a manifest's Profile A signature. */
import { createPublicKey, type KeyObject } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE, keyFile, type Settings } from "../config.ts";
import { projectSettings } from "./project-settings.ts";
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
import { baseUrlProblem } from "../../core/http/base-url.ts";
import { statusRefFor } from "../../core/validate/status-ref.ts";
import { schemaValidators, type SchemaValidators } from "../validate/schema-validator.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { appendAll } from "../../core/append-all.ts";
import type { sign } from "./sign-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runSign: CommandRun<typeof sign> = async (values, [paths]) => {
  const settings = projectSettings();
  const keyRef = values["key-ref"] ?? settings.signingKeyRef;
  if (keyRef === undefined)
    throw new UsageError(`--key-ref KEYREF is required, or signingKeyRef in ${CONFIG_FILE} (keygen sets it)`);
  const keyPath = values.key ?? keyFile(settings, "signing");
  if (values.key === undefined && !existsSync(keyPath))
    throw new UsageError(`no signing key at ${keyPath}: make one with manifest-resolver keygen, or give --key PEM`);
  const key = await loadPrivateKey(keyPath);
  if (typeof key === "string") {
    console.error(`manifest-resolver: ${key}`);
    return EXIT_FAILED;
  }
  const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
  const statusBase = values["status-base"] ?? settings.resolverUrl;
  // A base a client cannot fetch from (credentials, a query, a fragment) would write statusRefs none resolves.
  const baseProblem = statusBase === "" ? undefined : baseUrlProblem(statusBase);
  if (baseProblem !== undefined)
    throw new UsageError(
      `${values["status-base"] !== undefined ? "--status-base" : "the resolver URL"} ${baseProblem}`,
    );
  const statusList = values["status-list"] === true || settings.statusLists;
  if (statusList && statusBase === "")
    throw new UsageError(
      `status lists need the resolver that serves them: --status-base URL, or resolverUrl in ${CONFIG_FILE}`,
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
};

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
