/**
 * `_keys.json`: pinned signing keys, `{ "<keyRef>": "<Ed25519 SPKI, standard base64>" }`.
 * Once it exists, every manifest's `signature.keyRef` must be pinned here, and a manifest
 * must embed exactly the pinned key, or none.
 */

const KEYS_SCHEMA_ID = "urn:manifest-resolver:schema:keys";

export const keysSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: KEYS_SCHEMA_ID,
  type: "object",
  propertyNames: { minLength: 1 },
  additionalProperties: {
    type: "string",
    pattern: "^MCowBQYDK2VwAyEA[A-Za-z0-9+/]{43}=$",
    description: 'an Ed25519 public key as standard base64 of its 44-byte SubjectPublicKeyInfo ("MCowBQYDK2VwAyEA…=")',
  },
} as const;
