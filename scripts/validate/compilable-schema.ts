/**
 * A JSON Schema as ajv compiles it, here (schema-validator.ts) and ahead of time
 * (tools/generate-validators.ts), with the descriptions its errors' messages quote
 * (core/validate/schema-problems.ts).
 *
 * ajv runs without `verbose`, so an error names the subschema at fault by its schemaPath
 * alone, and the description is looked up by that path. ajv inlines a `$ref` whose target
 * holds no `$ref` itself, and the path of an error there goes on from the `$ref`'s text
 * (`#/$defs/Consent/…`), a path in the document; but it compiles any other target to a
 * function of its own, whose errors' paths start again at `#`, so that `#/properties/@type`
 * could be the manifest's or a facet's. Those `$ref`s are replaced here by their targets:
 * ajv then compiles the document as one function, and every path is a path in it.
 */
import { escapePointerToken, unescapePointerToken } from "../../core/json/pointer.ts";
import { isJsonObject } from "../../core/json/strict-json.ts";
import type { SchemaDescriptions } from "../../core/validate/generated/validator.ts";
import { DESCRIBED_KEYWORDS } from "../../core/validate/schema-problems.ts";

type Schema = Record<string, unknown>;

export interface CompilableSchema {
  schema: Schema;
  descriptions: SchemaDescriptions;
}

export function compilable(schema: object): CompilableSchema {
  const inlined = refsInlined(schema as Schema);
  return { schema: inlined, descriptions: descriptionsIn(inlined) };
}

/** Beside a `$ref` replaced, what is kept: what belongs to the document, not to the subschema. */
const KEPT_BESIDE_REF = new Set(["$schema", "$id", "$defs"]);
/** Beside a `$ref` replaced, what is dropped: annotations, which ajv never reports errors against. */
const DROPPED_BESIDE_REF = new Set(["description", "title", "$comment"]);

/** The subschema a `$ref` of `root` names: `#` and a JSON pointer, URI-encoded. */
function refTarget(root: Schema, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`a $ref outside its document: ${ref}`);
  return pointerOfRef(ref)
    .slice(1)
    .split("/")
    .reduce<unknown>((at, token) => (at as Schema)[unescapePointerToken(token)], root);
}

function pointerOfRef(ref: string): string {
  return decodeURIComponent(ref.slice(1));
}

/** `root` with each `$ref` whose target holds a `$ref` replaced by that target, itself so treated. */
function refsInlined(root: Schema): Schema {
  const inline = (node: unknown, refs: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, refs));
    if (!isJsonObject(node)) return node;
    const ref = node.$ref;
    if (typeof ref === "string" && holdsRef(refTarget(root, ref))) {
      if (refs.includes(ref)) throw new Error(`a $ref cycle: ${[...refs, ref].join(" → ")}`);
      const unexpected = Object.keys(node).filter(
        (k) => k !== "$ref" && !KEPT_BESIDE_REF.has(k) && !DROPPED_BESIDE_REF.has(k),
      );
      if (unexpected.length > 0) throw new Error(`${unexpected.join(", ")} beside the $ref ${ref}: not inlined here`);
      const kept = Object.entries(node).filter(([k]) => KEPT_BESIDE_REF.has(k));
      return {
        ...Object.fromEntries(kept.map(([k, v]) => [k, inline(v, refs)])),
        ...(inline(refTarget(root, ref), [...refs, ref]) as Schema),
      };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, refs)]));
  };
  return inline(root, []) as Schema;
}

function holdsRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsRef);
  return isJsonObject(node) && (Object.hasOwn(node, "$ref") || Object.values(node).some(holdsRef));
}

/**
 * The descriptions of the subschemas holding one of DESCRIBED_KEYWORDS, by their paths as
 * ajv's errors give them: through a `$ref` (all ajv inlines here), the path goes on from
 * the `$ref`'s text; `$defs` are reached so or not at all.
 */
function descriptionsIn(root: Schema): SchemaDescriptions {
  const descriptions: Record<string, string> = {};
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) for (const [i, item] of node.entries()) visit(item, `${pointer}/${i}`);
    if (!isJsonObject(node)) return;
    if (typeof node.description === "string" && DESCRIBED_KEYWORDS.some((k) => Object.hasOwn(node, k)))
      descriptions[pointer] = node.description;
    if (typeof node.$ref === "string") visit(refTarget(root, node.$ref), pointerOfRef(node.$ref));
    for (const [key, value] of Object.entries(node))
      if (key !== "$defs") visit(value, `${pointer}/${escapePointerToken(key)}`);
  };
  visit(root, "");
  return descriptions;
}
