/**
 * `_routes.json`: the UMIDs the content directory answers without a manifest payload
 * (redirects, revocations), and the status of published ones (EXT-OPT O2.3: suspended,
 * and reinstated, which dates the return to active so that the status cursor keeps
 * increasing). Closed objects throughout: a misspelt member here would silently drop a
 * redirect or a revocation, so it is an error instead. A redirect's location obeys the one
 * rule of redirect-location.ts, a keyword of our own (tools/generate-validators.ts says how
 * the generated code reports it, schema-validator.ts judges it at run time). A reason
 * is one line of at most 200 characters: it is served in status documents and kept in
 * Workers KV metadata, which holds 1024 bytes.
 */

const ROUTES_SCHEMA_ID = "urn:manifest-resolver:schema:routes";

const umid = { type: "string", minLength: 1 } as const;
const dateTime = { type: "string", format: "date-time" } as const;
const reason = { type: "string", maxLength: 200, pattern: "^[^\\u0000-\\u001f\\u007f]*$" } as const;

export const routesSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: ROUTES_SCHEMA_ID,
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    redirects: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["umid", "location"],
        properties: {
          umid,
          location: { type: "string", "redirect-location": true },
        },
      },
    },
    revoked: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["umid"],
        properties: {
          umid,
          revokedAt: dateTime,
          reason,
        },
      },
    },
    suspended: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["umid"],
        properties: { umid, suspendedAt: dateTime, reason },
      },
    },
    reinstated: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["umid", "reinstatedAt"],
        properties: { umid, reinstatedAt: dateTime },
      },
    },
  },
} as const;
