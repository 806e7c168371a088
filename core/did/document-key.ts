/**
 * The Ed25519 key a DID document gives a keyRef for signing (DID Core §5.2, §5.3.1): the
 * document must be the DID's own (`id`), the keyRef must name one of its verification
 * methods, by absolute DID URL or by `#fragment` relative to the DID, and that method
 * must be listed under `assertionMethod` (the relationship for issuing statements, which
 * a manifest is), by reference or embedded there. A keyRef without a fragment names the
 * document's one assertion method, if it has exactly one. Key formats: `Multikey` and
 * `Ed25519VerificationKey2020` (`publicKeyMultibase`), `Ed25519VerificationKey2018`
 * (`publicKeyBase58`), `JsonWebKey` and `JsonWebKey2020` (`publicKeyJwk`).
 */
import { quoted } from "../excerpt.ts";
import { utf8 } from "../base64url.ts";
import { isJsonObject, parseJson } from "../json/strict-json.ts";
import { ed25519FromBase58, ed25519FromJwk, ed25519FromMultikey, type Ed25519Key } from "./ed25519-key-formats.ts";
import type { KeyRefFault } from "./key-ref-fault.ts";

export type DocumentKey = { publicKey: Uint8Array } | { fault: KeyRefFault; reason: string };

const KEY_FORMATS: Record<string, (method: Record<string, unknown>) => Ed25519Key> = {
  Multikey: (m) => ed25519FromMultikey(m.publicKeyMultibase),
  Ed25519VerificationKey2020: (m) => ed25519FromMultikey(m.publicKeyMultibase),
  Ed25519VerificationKey2018: (m) => ed25519FromBase58(m.publicKeyBase58),
  JsonWebKey: (m) => ed25519FromJwk(m.publicKeyJwk),
  JsonWebKey2020: (m) => ed25519FromJwk(m.publicKeyJwk),
};

/** A DID document is a few keys: 64 KiB is ample, and bounds what a hostile host can make a relying party read. */
export const DID_DOCUMENT_MAX_BYTES = 65_536;
/** A document is small and flat: DID Core nests a JWK in a method in a list in the document. */
const DOCUMENT_SHAPE = { maxDepth: 8, maxArrayItems: 1000 };

/**
 * The key the DID document `text` gives `keyRef`, read as the client reads a did:web document (core/did/did-web.ts)
 * and as `check` reads the documents the build will publish (scripts/check/did-web-documents.ts): at most
 * DID_DOCUMENT_MAX_BYTES, strict JSON within the document's shape, then keyInDidDocument.
 */
export function keyInDidDocumentText(text: string, did: string, keyRef: string): DocumentKey {
  const bytes = utf8(text).byteLength;
  if (bytes > DID_DOCUMENT_MAX_BYTES)
    return { fault: "too-large", reason: `the DID document is ${bytes} bytes, more than ${DID_DOCUMENT_MAX_BYTES}` };
  const parsed = parseJson(text, DOCUMENT_SHAPE);
  if (!parsed.ok)
    return { fault: "document-malformed", reason: `the DID document is not JSON: ${parsed.problem.message}` };
  return keyInDidDocument(parsed.value, did, keyRef);
}

/** The key `document`, read as `did`'s document, gives `keyRef` (`did` or `did#fragment`). */
export function keyInDidDocument(document: unknown, did: string, keyRef: string): DocumentKey {
  if (!isJsonObject(document)) return { fault: "document-malformed", reason: "the DID document is not a JSON object" };
  if (document.id !== did)
    return {
      fault: "document-id-mismatch",
      reason: `the DID document's id is ${quoted(document.id)}, not the DID ${quoted(did)}: it is another DID's`,
    };
  const absolute = (id: unknown) => (typeof id === "string" && id.startsWith("#") ? did + id : id);
  const assertion = Array.isArray(document.assertionMethod) ? document.assertionMethod : [];
  const asserted = assertion.map((entry) => absolute(isJsonObject(entry) ? entry.id : entry));
  let wanted = keyRef;
  if (keyRef === did) {
    if (asserted.length !== 1)
      return {
        fault: "method-not-found",
        reason:
          `keyRef ${quoted(keyRef)} names no verification method, and the DID document lists ` +
          `${asserted.length} assertion methods, not one`,
      };
    wanted = String(asserted[0]);
  }
  const methods = [
    ...(Array.isArray(document.verificationMethod) ? document.verificationMethod : []),
    ...assertion,
  ].filter(isJsonObject);
  const named = methods.filter((m) => absolute(m.id) === wanted);
  if (named.length > 1)
    return {
      fault: "document-malformed",
      reason: `the DID document has ${named.length} verification methods ${quoted(wanted)}: an id names one`,
    };
  const method = named[0];
  if (method === undefined)
    return { fault: "method-not-found", reason: `the DID document has no verification method ${quoted(wanted)}` };
  if (!asserted.includes(wanted))
    return {
      fault: "not-assertion-method",
      reason:
        `the DID document does not list ${quoted(wanted)} under assertionMethod: ` +
        `its controller has not authorized that key to sign statements`,
    };
  const format = typeof method.type === "string" && Object.hasOwn(KEY_FORMATS, method.type) ? method.type : undefined;
  if (format === undefined)
    return {
      fault: "key-unsupported",
      reason:
        `verification method ${quoted(wanted)} is of type ${quoted(method.type)}: only ` +
        `${Object.keys(KEY_FORMATS).join(", ")} are read`,
    };
  const key = KEY_FORMATS[format]!(method);
  return "fault" in key
    ? { fault: "key-unsupported", reason: `verification method ${quoted(wanted)} (${format}): its key ${key.fault}` }
    : key;
}
