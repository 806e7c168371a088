/**
 * `_routes.json`: the UMIDs the content directory answers without a manifest payload.
 * Closed objects throughout: a misspelt member here would silently drop a redirect or a
 * revocation, so it is an error instead. A redirect's location obeys the one rule of
 * redirect-location.ts, a keyword of our own (see schema-validator.ts).
 */

export const ROUTES_SCHEMA_ID = "urn:manifest-resolver:schema:routes";

const umid = { type: "string", minLength: 1 } as const;

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
          revokedAt: { type: "string", format: "date-time" },
          reason: { type: "string" },
        },
      },
    },
  },
} as const;
