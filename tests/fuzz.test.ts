/**
 * The validator under random and mutated input: it never throws, never hangs (every run
 * is bounded by the test's timeout), and never accepts a signed manifest once any value
 * inside its signed content has changed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { settingsFromEnv } from "../scripts/config.ts";
import { checkManifestText, type ManifestContext } from "../scripts/check/manifest-check.ts";
import { NO_OPT_INS } from "../scripts/check/unsigned.ts";
import { canonicalize } from "../core/crypto/jcs.ts";
import { UNSIGNED_MEMBERS } from "../core/crypto/signing-input.ts";
import { newKey } from "./support/fixture-content.ts";
import { manifestsOfEveryShape } from "./support/manifest-shapes.ts";

const settings = settingsFromEnv({});
const context: ManifestContext = {
  settings,
  now: new Date("2027-01-01T00:00:00Z"),
  strict: false,
  pins: undefined,
  unsigned: NO_OPT_INS,
};
const errorsOf = (text: string) =>
  checkManifestText("fuzz.json", text, context).diagnostics.filter((d) => d.severity === "error");

// Facets (one encrypted), claims, consents, pointers, liveness: signed here with a key of
// the test's own. (Never the repository's content/, which is the publisher's to change.)
const samples = manifestsOfEveryShape(newKey());

type Path = (string | number)[];
/** Every value inside the signed content, as a path from the root. */
function signedPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [path];
  const children = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value).filter(([k]) => path.length > 0 || !UNSIGNED_MEMBERS.has(k));
  return [...(path.length > 0 ? [path] : []), ...children.flatMap(([k, v]) => signedPaths(v, [...path, k]))];
}

type Mutation =
  | { kind: "replace"; value: unknown }
  | { kind: "remove" }
  | { kind: "add"; name: string; value: unknown };

function mutate(manifest: Record<string, unknown>, path: Path, mutation: Mutation): Record<string, unknown> {
  const copy = structuredClone(manifest);
  const parent = path
    .slice(0, -1)
    .reduce<Record<string, unknown>>((node, k) => node[k] as Record<string, unknown>, copy);
  const last = path.at(-1)!;
  const target = parent[last];
  if (mutation.kind === "replace") parent[last] = mutation.value;
  else if (mutation.kind === "remove") Array.isArray(parent) ? parent.splice(last as number, 1) : delete parent[last];
  else if (typeof target === "object" && target !== null && !Array.isArray(target))
    (target as Record<string, unknown>)[mutation.name] = mutation.value;
  else if (Array.isArray(target)) target.push(mutation.value);
  else parent[last] = [target, mutation.value];
  return copy;
}

const signedContent = (m: Record<string, unknown>) =>
  canonicalize(Object.fromEntries(Object.entries(m).filter(([k]) => !UNSIGNED_MEMBERS.has(k))));
const jsonValue = fc.jsonValue({ maxDepth: 2 });

describe("fuzz: the manifest validator", () => {
  it("accepts every sample as it is", () => {
    assert.ok(samples.length >= 6);
    for (const sample of samples) assert.deepEqual(errorsOf(JSON.stringify(sample)), []);
  });

  it("rejects a sample after any change to its signed content", { timeout: 60_000 }, () => {
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      jsonValue.map((value) => ({ kind: "replace", value }) as const),
      fc.constant({ kind: "remove" } as const),
      fc.record({
        kind: fc.constant("add" as const),
        name: fc.string({ minLength: 1, maxLength: 8 }),
        value: jsonValue,
      }),
    );
    fc.assert(
      fc.property(fc.nat(samples.length - 1), fc.nat(), mutation, (which, at, change) => {
        const sample = samples[which]!;
        const paths = signedPaths(sample);
        const mutated = mutate(sample, paths[at % paths.length]!, change);
        fc.pre(signedContent(mutated) !== signedContent(sample));
        assert.notDeepEqual(errorsOf(JSON.stringify(mutated, null, 2)), [], JSON.stringify(change));
      }),
      { numRuns: 1500 },
    );
  });

  it("never throws on arbitrary text, JSON, or damaged samples", { timeout: 60_000 }, () => {
    const damaged = fc
      .tuple(
        fc.nat(samples.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.string({ unit: "binary", maxLength: 3 })), {
          minLength: 1,
          maxLength: 5,
        }),
      )
      .map(([which, edits]) =>
        edits.reduce(
          (text, [at, cut, insert]) => {
            const i = at % (text.length + 1);
            return text.slice(0, i) + insert + text.slice(i + cut);
          },
          JSON.stringify(samples[which], null, 2),
        ),
      );
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      damaged,
    );
    fc.assert(
      fc.property(text, (t) => {
        assert.ok(Array.isArray(checkManifestText("fuzz.json", t, context).diagnostics));
      }),
      { numRuns: 3000 },
    );
  });

  it("stays bounded on hostile shapes", () => {
    const hostile = [
      "[".repeat(200_000),
      '{"a":'.repeat(200_000),
      `[${"0,".repeat(500_000)}0]`,
      `"${"\\u0041".repeat(200_000)}"`,
    ];
    for (const text of hostile) assert.notDeepEqual(errorsOf(text), []);
  });
});
