/**
 * `manifest-resolver new`: a v0.4 manifest skeleton to fill in and sign. Its subject is
 * never made up: a placeholder DID would be signed and published as someone's identity.
 */
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { projectSettings } from "./project-settings.ts";
import { chosenFile } from "./deprecated-spelling.ts";
import { shellWord } from "../report/fix-hints.ts";
import { defaultContentDir } from "../read/content-root.ts";
import { displayPath, KEYS_FILE, LIST_FILE_SHAPE, LIST_FILE_LIMIT, readSourceText } from "../read/files.ts";
import { DEFAULT_STYLE, formatJson } from "../edit/json-file.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { LIFETIME_DAYS, type newManifest } from "./new-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runNew: CommandRun<typeof newManifest> = async (values) => {
  // Worked out here, not by the declaration: reading _keys.json is no part of --help.
  const subject = values.subject ?? pinnedSubject();
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(subject))
    throw new UsageError(`--subject must be a URI such as did:web:you.example, not '${subject}'`);
  const settings = projectSettings();
  const now = new Date();
  now.setUTCMilliseconds(0);
  const expires = new Date(now.getTime() + LIFETIME_DAYS * 86_400_000);
  const manifest = {
    "@context": settings.contextUrl,
    "@id": `urn:uuid:${randomUUID()}`,
    "@type": "um:Manifest",
    manifestVersion: "0.4",
    subject,
    issuedAt: now.toISOString().replace(".000Z", "Z"),
    expiresAt: expires.toISOString().replace(".000Z", "Z"),
    facets: [],
    claims: [],
    consents: [],
    pointers: [],
  };
  const text = formatJson(manifest, DEFAULT_STYLE);
  const out = chosenFile("new", values);
  if (out === undefined) {
    process.stdout.write(text);
    return EXIT_OK;
  }
  try {
    await writeFile(out, text, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      `manifest-resolver: cannot write ${out}: ${code === "EEXIST" ? "it exists" : (error as Error).message}`,
    );
    return EXIT_FAILED;
  }
  // The project's signing key and keyRef are sign's defaults once keygen made them; else sign needs both.
  const how = settings.signingKeyRef === undefined ? " --key KEY.pem --key-ref KEYREF" : "";
  console.log(`wrote ${out} (${manifest["@id"]}); fill it in, then: manifest-resolver sign ${shellWord(out)}${how}`);
  return EXIT_OK;
};

/** The DID of the one key `_keys.json` pins (its keyRef without the #fragment); a usage error otherwise. */
function pinnedSubject(): string {
  const path = join(defaultContentDir(), KEYS_FILE);
  const read = readSourceText(path, LIST_FILE_LIMIT);
  const parsed = "text" in read ? parseJson(read.text, LIST_FILE_SHAPE) : undefined;
  const keyRefs = parsed?.ok && isJsonObject(parsed.value) ? Object.keys(parsed.value) : [];
  if (keyRefs.length === 1) return keyRefs[0]!.split("#")[0]!;
  const why =
    "text" in read
      ? `${displayPath(path)} pins ${keyRefs.length} keys, so there is no one DID to take`
      : `there is no ${displayPath(path)} to take the DID of its key from`;
  throw new UsageError(`name the manifest's subject with --subject DID: ${why}`);
}
