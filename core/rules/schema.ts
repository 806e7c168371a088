/**
 * `schema/<keyword>`: a JSON Schema keyword failed, in the v0.4 manifest schema (contract
 * section 2; core/validate/manifest-schema.ts), an earlier version's published schema, or
 * the schema of `_routes.json`, `_keys.json` or `_unsigned.json` (scripts/validate/). One
 * rule per keyword those schemas use (schema-keywords.ts).
 */
import type { Rule } from "./rule.ts";
import type { SchemaKeyword } from "./schema-keywords.ts";

const SCHEMAS = 'contract section 2 (the v0.4 format); README, "Content" (_routes.json, _keys.json, _unsigned.json)';

export const SCHEMA_RULES = {
  "schema/required": {
    severity: "error",
    summary: "a required member is missing",
    why:
      "The format names the members each object must have: a manifest its @context, " +
      "@id, @type, manifestVersion, subject, issuedAt, expiresAt and signature; a " +
      "signature its algorithm, canonicalization, keyRef and value. A relying party " +
      "rejects a manifest that lacks one (core §1.6.4, step 1), so publishing it would " +
      "serve a manifest no one can use.",
    source: `${SCHEMAS}; UM v0.4 core §1.6.4`,
    fix: "Add the member the message names, in the object the pointer gives ('at (root)' is the whole document).",
    example: 'missing required member "expiresAt" at (root)   ->   add "expiresAt": "2027-01-01T00:00:00Z"',
  },
  "schema/type": {
    severity: "error",
    summary: "a value has the wrong JSON type",
    why:
      "Each member has one type in the format (a string, an integer, an object, an " +
      "array): a consumer written against the spec fails on, or misreads, a value of " +
      "another type.",
    source: SCHEMAS,
    fix:
      "Write the value as the type the message names: quotes around a string, none " +
      "around a number or a boolean, [ ] around an array.",
    example: '"requiredTrustTier": "1"   ->   "requiredTrustTier": 1',
  },
  "schema/additionalProperties": {
    severity: "error",
    summary: "an object has a member it does not allow",
    why:
      "Most objects of the format are open, but a few are closed: RequiredLiveness " +
      "(contract 2.9), and every object of _routes.json, where a misspelt member " +
      '("revokeAt") would silently drop what the entry means.',
    source: `${SCHEMAS}; contract 2.9`,
    fix: "Remove the member, or correct its spelling to one the object allows.",
  },
  "schema/const": {
    severity: "error",
    summary: "a value is not the one value allowed",
    why:
      'Some members identify the format or the profile: manifestVersion is "0.4", ' +
      'signature.algorithm "Ed25519", signature.canonicalization "JCS-RFC8785". Any ' +
      "other value is another format, which relying parties reject rather than guess " +
      "at.",
    source: `${SCHEMAS}; UM v0.4 core §1.6.5`,
    fix: "Write exactly the value the message names.",
  },
  "schema/enum": {
    severity: "error",
    summary: "a value is not one of those allowed",
    why:
      "Members such as requiredAssuranceClass, a presentation proof's proofType, a " +
      "holder binding's mode and a delegation's delegateType take one of a fixed set " +
      "of values: a consumer knows no meaning for any other.",
    source: SCHEMAS,
    fix: "Use one of the values the message lists, spelt exactly (letter case counts).",
  },
  "schema/format": {
    severity: "error",
    summary: "a string is not a valid date-time or URI",
    why:
      "Timestamps are RFC 3339 date-times and references are URIs (contract 2.1). " +
      "Expiry and freshness are computed from the dates: one that does not parse, or " +
      "names no day (2026-02-30), cannot be compared, and tools would read it as " +
      "another date or none.",
    source: `${SCHEMAS}; RFC 3339 §5.6; RFC 3986`,
    fix: "Write dates as RFC 3339 date-times, such as 2026-11-23T09:00:00Z, and URIs in full, with their scheme.",
    example: '"expiresAt": "2027-01-01"   ->   "expiresAt": "2027-01-01T00:00:00Z"',
  },
  "schema/pattern": {
    severity: "error",
    summary: "a string is not in the shape required",
    why:
      "Some strings have a fixed shape: a ceremony proof's threshold is M-of-N; a " +
      "_keys.json value is an Ed25519 SubjectPublicKeyInfo in base64; an " +
      "_unsigned.json value is sha256-<43 base64url characters>; a _routes.json reason " +
      "is one line without control characters.",
    source: SCHEMAS,
    fix:
      "Write the value in the shape the message describes; manifest-resolver keygen " +
      "prints a key's _keys.json entry, and check prints an _unsigned.json entry.",
  },
  "schema/minLength": {
    severity: "error",
    summary: "a string is shorter than allowed (usually: empty)",
    why:
      "Identifiers such as @id, subject, keyRef and signature.value must not be empty " +
      "(contract section 2): an empty identifier names nothing, and cannot be resolved " +
      "or verified.",
    source: SCHEMAS,
    fix: "Give the member its value, or remove it if it is optional.",
  },
  "schema/maxLength": {
    severity: "error",
    summary: "a string is longer than allowed",
    why:
      "A _routes.json reason is at most 200 characters: status documents serve it, and " +
      "Workers KV keeps it in metadata that holds 1024 bytes.",
    source: 'README, "Content" (_routes.json)',
    fix: "Shorten the text.",
  },
  "schema/minItems": {
    severity: "error",
    summary: "an array has fewer elements than required",
    why:
      "Some arrays must not be empty, or need several elements: a consent's scope, a " +
      "ceremony proof's attesters, and a cross-DID binding's boundDids (at least 2, " +
      "contract 8).",
    source: `${SCHEMAS}; contract 8`,
    fix: "Add the missing elements, or remove an optional member that has none.",
  },
  "schema/maxItems": {
    severity: "error",
    summary: "an array has more elements than allowed",
    why: "A bilateral session has exactly two participants (contract 2.10 and 8).",
    source: "contract 2.10, 8",
    fix: "Remove the extra elements.",
  },
  "schema/minimum": {
    severity: "error",
    summary: "a number is below the minimum allowed",
    why: "A trust tier (requiredTrustTier) is an integer from 0 to 3 (contract 2.1 and 8); there is no tier below 0.",
    source: "contract 2.1, 8",
    fix: "Use a value within the range the message names.",
  },
  "schema/maximum": {
    severity: "error",
    summary: "a number is above the maximum allowed",
    why: "A trust tier (requiredTrustTier) is an integer from 0 to 3 (contract 2.1 and 8); there is no tier above 3.",
    source: "contract 2.1, 8",
    fix: "Use a value within the range the message names.",
  },
  "schema/anyOf": {
    severity: "error",
    summary: "a value has none of the shapes allowed",
    why:
      "Some members take one of several shapes: @context and @type must be, or (in an " +
      "array) contain, the v0.4 namespace and um:Manifest; a facet's entity may be an " +
      "entity, a JWE entity, another object, a string or null. A manifest whose " +
      "@context names another namespace is another vocabulary.",
    source: `${SCHEMAS}; UM v0.4 core §1.2.1, §1.2.3`,
    fix:
      "Give the value one of the shapes the message describes. The @context namespace " +
      "is {standards_url}/ns/v0.4: https://universalmanifest.net/ns/v0.4 unless " +
      "UM_STANDARDS_URL names another site.",
    example: '"@context": "https://universalmanifest.net/ns/v0.4"',
  },
  "schema/oneOf": {
    severity: "error",
    summary: "a value has none, or more than one, of the shapes allowed",
    why:
      "The published schemas of manifest versions 0.1 to 0.3 define some members " +
      "(@context, @type, claimProof) as exactly one of several shapes; a stored " +
      "payload of such a version is held to its own version's schema.",
    source: "the published v0.1-v0.3 schemas (scripts/validate/legacy/); contract 4.3",
    fix: "Give the value exactly one of the shapes the message describes.",
  },
  "schema/contains": {
    severity: "error",
    summary: "an array does not contain the value it must",
    why:
      "An array-valued @type or @context must include um:Manifest, or the namespace, " +
      "among its entries: without it the document does not say it is a manifest of " +
      "this version.",
    source: `${SCHEMAS}; UM v0.4 core §1.2.1, §1.2.3`,
    fix: "Add the value the message names to the array.",
  },
  "schema/propertyNames": {
    severity: "error",
    summary: "a member name is not allowed (empty)",
    why:
      "In _keys.json each name is a keyRef, and in _unsigned.json a file's path: an " +
      "empty one names no key and no file.",
    source: 'README, "Content" (_keys.json, _unsigned.json)',
    fix: "Remove the entry, or give it its keyRef or path.",
  },
  "schema/redirect-location": {
    severity: "error",
    summary: "a redirect's location is not a URL the resolver may send consumers to",
    why:
      "A 307 sends everyone who resolves the UMID to its location. It must be an " +
      "absolute https: URL (or http: to a loopback host) naming a host right after the //, without " +
      "credentials (user:pass@), in printable ASCII, at most 8 KiB; checked on the " +
      "text as written, since URL parsers repair https:///etc/passwd into host etc and " +
      "https:\\\\host into https://host/. Clients follow nothing else, nor a redirect to a local or " +
      "private address (10.0.0.0/8, 0.0.0.0, [::ffff:127.0.0.1], …) from a resolver that is not on one " +
      "(UM_RESOLVER_URL): a remote resolver must not aim them at their own machine or network.",
    source: 'contract 3.1, 4.3 (307 with Location); README, "Content"',
    fix:
      "Write the canonical manifest URL in full: https://host/path, on a public host unless the resolver " +
      "(UM_RESOLVER_URL) is on this machine or network too.",
    example: '{ "umid": "urn:uuid:...", "location": "https://canonical.example/manifests/a.json" }',
  },
} satisfies Record<`schema/${SchemaKeyword}`, Rule>;
