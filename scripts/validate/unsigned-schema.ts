/**
 * `_unsigned.json`: the publisher's explicit opt-in to publish payloads that carry no
 * verifiable signature (v0.1 defines none), one entry per file: its path relative to the
 * content root, and the SHA-256 of its canonical form (`sha256-<base64url>`, as in the
 * resolver's ETags), so that the opt-in covers exactly the bytes a reviewer approved.
 */

const UNSIGNED_SCHEMA_ID = "urn:manifest-resolver:schema:unsigned";

export const unsignedSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: UNSIGNED_SCHEMA_ID,
  type: "object",
  propertyNames: { minLength: 1 },
  additionalProperties: {
    type: "string",
    pattern: "^sha256-[A-Za-z0-9_-]{43}$",
    description: 'the SHA-256 of the file\'s canonical form, as "sha256-<43 base64url characters>" (check prints it)',
  },
} as const;
