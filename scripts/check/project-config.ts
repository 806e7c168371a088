/**
 * `manifest-resolver.json`, the project's settings (scripts/config.ts), as every command reads it: strict JSON of its
 * schema (scripts/validate/config-schema.ts), each value one a command can use, and no secret. A file with an error
 * gives no settings at all: a command refuses to run on half of them.
 */
import { join } from "node:path";
import { excerpt, quoted } from "../../core/excerpt.ts";
import { baseUrlProblem } from "../../core/http/base-url.ts";
import { lineColumn } from "../../core/json/source-map.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import { isKeyName } from "../../core/tlog/note.ts";
import { CONFIG_FILE, keysFolder, type Project, type ProjectConfig } from "../config.ts";
import { isInside } from "../read/content-root.ts";
import { displayPath, LIST_FILE_LIMIT, LIST_FILE_SHAPE, readSourceText } from "../read/files.ts";
import { parseAndValidate, placed, type SourceFile } from "../read/source.ts";
import { diagnostic, hasErrors, type Diagnostic } from "../report/diagnostics.ts";
import { validateConfig } from "../validate/schema-validator.ts";
import { privateKeyArmour } from "./private-keys.ts";

/** An Ed25519 private key as base64 of its PKCS#8 DER, as `openssl pkey -outform DER | base64` prints it. */
const PKCS8_ED25519_BASE64 = "MC4CAQAwBQYDK2VwBCIEI";

/** An Ed25519 JWK's private member, `"d"` and its 43 base64url characters, as JSON or inside a string (`\"d\"`). */
const JWK_PRIVATE_MEMBER = /\\?"d\\?"\s*:\s*\\?"[A-Za-z0-9_-]{43}\\?"/;

export interface ProjectConfigCheck {
  /** The file as displayed; undefined when the project has none. */
  file: string | undefined;
  /** The project, with what its file says; `{}` when it has none, or one with an error. */
  project: Project;
  /** Where the file's members are, when it was read as its schema's object. */
  source?: SourceFile;
  diagnostics: Diagnostic[];
}

/** The settings file of the repository whose top folder is `root`. */
export function checkProjectConfig(root: string): ProjectConfigCheck {
  const path = join(root, CONFIG_FILE);
  const file = displayPath(path);
  const none = { root, config: {} };
  const read = readSourceText(path, LIST_FILE_LIMIT);
  if ("diagnostic" in read)
    return read.missing
      ? { file: undefined, project: none, diagnostics: [] }
      : { file, project: none, diagnostics: [read.diagnostic] };
  const secret = secretProblem(file, read.text);
  if (secret !== undefined) return { file, project: none, diagnostics: [secret] };
  const parsed = parseAndValidate(file, read.text, LIST_FILE_SHAPE, validateConfig);
  if (parsed.diagnostics.length > 0 || !isJsonObject(parsed.value))
    return { file, project: none, diagnostics: parsed.diagnostics };
  const config = parsed.value as ProjectConfig;
  const source = { file, map: parsed.map! };
  const diagnostics: Diagnostic[] = [];
  const urlProblem = config.resolverUrl === undefined ? undefined : baseUrlProblem(config.resolverUrl);
  if (urlProblem !== undefined)
    diagnostics.push(placed(source, "/resolverUrl", "config/value", `resolverUrl: ${urlProblem}`));
  if (config.logOrigin !== undefined && !isKeyName(config.logOrigin))
    diagnostics.push(
      placed(
        source,
        "/logOrigin",
        "config/value",
        `${quoted(config.logOrigin)} cannot name a log: a log's origin has no space and no '+'`,
      ),
    );
  if (config.keysDir !== undefined && isInside(keysFolder(config.keysDir, root), root))
    diagnostics.push(
      placed(
        source,
        "/keysDir",
        "config/keys-in-repository",
        `${quoted(config.keysDir)} is inside the repository (${displayPath(root)}): private keys written there ` +
          "would be one git add away from being published; name a folder outside it",
      ),
    );
  return { file, project: hasErrors(diagnostics) ? none : { root, config }, source, diagnostics };
}

/** The error for a private key anywhere in the file's text: as PEM, as base64 of its DER, as a JWK's private member. */
function secretProblem(file: string, text: string): Diagnostic | undefined {
  const pem = privateKeyArmour(text);
  const der = pem === undefined ? pkcs8Base64At(text) : undefined;
  const jwk = pem === undefined && der === undefined ? JWK_PRIVATE_MEMBER.exec(text)?.index : undefined;
  const at = pem?.index ?? der ?? jwk;
  if (at === undefined) return undefined;
  // The shape, not the characters: a message in a CI's log should not copy out more of the key.
  const shape = pem?.armour ?? (der === undefined ? 'a JWK\'s "d"' : "base64 of an Ed25519 PKCS#8 key");
  return diagnostic(
    "config/secret",
    { file, ...lineColumn(text, at) },
    `holds a private key (${excerpt(shape)}): remove it and rotate the key (keygen makes a new one in the keys ` +
      "folder, outside the repository); this file names only keysDir",
  );
}

/**
 * Where base64 of an Ed25519 PKCS#8 key begins, if the text holds one: read across the line breaks base64 is often
 * cut into (`base64 -w`, PEM's 64 columns), real ones or a JSON string's `\n`.
 */
function pkcs8Base64At(text: string): number | undefined {
  const direct = text.indexOf(PKCS8_ED25519_BASE64);
  if (direct !== -1) return direct;
  // Base64 is cut every 4 characters at the least: a key cut into lines still shows its first 4 whole.
  if (!text.includes(PKCS8_ED25519_BASE64.slice(0, 4))) return undefined;
  let joined = "";
  const from: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\" && (text[i + 1] === "n" || text[i + 1] === "r")) i++;
    else if (!/\s/.test(text[i]!)) {
      joined += text[i];
      from.push(i);
    }
  }
  const at = joined.indexOf(PKCS8_ED25519_BASE64);
  return at === -1 ? undefined : from[at];
}
