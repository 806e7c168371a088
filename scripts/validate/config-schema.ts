/**
 * `manifest-resolver.json`: the project's settings (scripts/config.ts), which every command reads. Public values
 * only: a private key never goes here (scripts/check/project-config.ts refuses one), only the folder the keys are in.
 */

const CONFIG_SCHEMA_ID = "urn:manifest-resolver:schema:config";

export const configSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: CONFIG_SCHEMA_ID,
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string", description: "a JSON Schema's URL, for editors" },
    resolverUrl: {
      type: "string",
      minLength: 1,
      description: "the resolver's base URL, as relying parties take it (https://you.example)",
    },
    signingKeyRef: {
      type: "string",
      minLength: 1,
      description: "the keyRef manifests are signed with, pinned in content/_keys.json",
    },
    keysDir: {
      type: "string",
      minLength: 1,
      description: "the folder of the private keys, outside the repository (~ is the home folder)",
    },
    statusLists: { type: "boolean", description: "whether sign gives statusRefs into status lists" },
    statusListKey: {
      type: "string",
      pattern: "^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$",
      description: "the did:key of the status lists' Ed25519 key (keygen --role status-list writes it)",
    },
    logOrigin: {
      type: "string",
      minLength: 1,
      description: "the transparency log's name (its checkpoints' first line)",
    },
  },
} as const;
