/**
 * The check's one-pass parse (core/crypto/canonical-parse.ts) against the path it replaced,
 * `parseJson` then `canonicalMembers`, on the same texts (issue 42): the public v0.4 suite,
 * the legacy suites, manifests of every shape, the RFC 8785 vectors, and many texts mutated
 * the ways an attacker mutates them. Both must accept the same texts with the same value,
 * members and places, refuse the same texts with the same problem, and give a manifest the
 * same diagnostics (rule, message, pointer, line and column) through the schema and the
 * cross-field rules.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalize, canonicalMembers, joinMembers } from "../core/crypto/jcs.ts";
import { parseCanonical } from "../core/crypto/canonical-parse.ts";
import { isJsonObject, parseJson, type JsonParseResult } from "../core/json/strict-json.ts";
import { structureProblems } from "../core/validate/manifest-structure.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { validated } from "../scripts/read/source.ts";
import { PUBLISHED_LEGACY_CHECKS } from "../scripts/validate/legacy-schemas.ts";
import { manifestsOfEveryShape } from "./support/manifest-shapes.ts";
import { holds, mutatedText } from "./support/properties.ts";
import { sharedPath, skipWithoutShared } from "./support/shared.ts";

const settings = settingsFromEnv({});
const { limits } = settings;

/** Every JSON text under `dir`, by its path. */
function jsonTexts(dir: string): [string, string][] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.json(ld)?$/.test(name))
    .sort()
    .map((name) => [name, readFileSync(join(dir, name), "utf8")]);
}

const V04 = "peer/universal-manifest-v0.4";
const LEGACY = "peer/legacy";
const skipV04 = skipWithoutShared(V04);
const skipLegacy = skipWithoutShared(LEGACY);
const suites: [string, string][] = [
  ...(skipV04 ? [] : jsonTexts(sharedPath(V04))),
  ...(skipLegacy ? [] : jsonTexts(sharedPath(LEGACY))),
];
const { privateKey } = generateKeyPairSync("ed25519");
const shapes = manifestsOfEveryShape(privateKey).flatMap((manifest, i): [string, string][] => [
  [`shape ${i}, indented`, JSON.stringify(manifest, null, 2)],
  [`shape ${i}, compact`, JSON.stringify(manifest)],
]);

/** Every pointer into `value`, and one to a member it lacks under each object. */
function pointersOf(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null) return [at];
  const tokens = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
  return [
    at,
    ...(Array.isArray(value) ? [] : [`${at}/absent`]),
    ...tokens.flatMap((token, i) =>
      pointersOf(
        (value as Record<string, unknown>)[token] ?? (value as unknown[])[i],
        `${at}/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`,
      ),
    ),
  ];
}

const validate = (value: unknown) => structureProblems(value, settings.standardsUrl, PUBLISHED_LEGACY_CHECKS);

/** That the one-pass parse of `text` gives what the full parse and canonicalization give. */
function agrees(text: string): void {
  const full: JsonParseResult = parseJson(text, limits);
  const one = parseCanonical(text, limits);
  assert.equal(one.ok, full.ok, `accepts as parseJson does: ${full.ok ? "" : full.problem.message}`);
  if (!full.ok || !one.ok) {
    assert.deepEqual(one, full);
    return;
  }
  assert.deepEqual(one.value, full.value);
  assert.equal(JSON.stringify(one.value), JSON.stringify(full.value), "members in the same order");
  assert.equal(one.canonical, canonicalize(full.value));
  if (isJsonObject(full.value)) assert.deepEqual(one.members, canonicalMembers(full.value));
  else assert.equal(one.members, undefined);
  for (const pointer of pointersOf(full.value)) {
    assert.deepEqual(one.source.place(pointer), full.source.place(pointer), pointer);
    assert.equal(one.source.offsetOf(pointer), full.source.offsetOf(pointer), pointer);
  }
  const diagnostics = (parsed: JsonParseResult) => validated("m.json", text, parsed, validate).diagnostics;
  assert.deepEqual(diagnostics(one), diagnostics(full));
}

describe("the one-pass parse agrees with parseJson and canonicalMembers", () => {
  it("on the v0.4 suite", { skip: skipV04 }, () => {
    const v04 = suites.filter(([name]) => !name.startsWith("v0."));
    assert.ok(v04.length >= 40, `the suite's fixtures: ${v04.length}`);
    for (const [name, text] of v04) assert.doesNotThrow(() => agrees(text), name);
  });

  it("on the legacy suites", { skip: skipLegacy }, () => {
    for (const [name, text] of jsonTexts(sharedPath(LEGACY))) assert.doesNotThrow(() => agrees(text), name);
  });

  it("on manifests of every shape, indented and compact", () => {
    for (const [name, text] of shapes) assert.doesNotThrow(() => agrees(text), name);
  });

  it("on every problem a hostile text can have", () => {
    const texts = [
      '{"a":1,"a":2}',
      '{"a":1,"b":{"c":2,"c":3}}',
      '{"\\u0061":1,"a":2}',
      '{"__proto__":{"polluted":true},"b":[1,2]}',
      '{"a":[1,2,],"b":1}',
      '{"a":1,}',
      '{"a" 1}',
      '{"a":1 "b":2}',
      "[1,2",
      '"\\ud800"',
      '"\ud800"',
      '"a\u0001"',
      '"\\x"',
      '"\\u12g4"',
      "9007199254740993",
      "-9007199254740993",
      "9007199254740991",
      "900719925474099.5",
      "123456789012345",
      "1234567890123456",
      "1.0",
      "1e2",
      "1E+2",
      "-0",
      "-0.0",
      "0.1e-400",
      "1e400",
      "01",
      "-",
      "- 1",
      "tru",
      "nulll",
      "{}",
      "[]",
      "  { }  ",
      "\t[ ]\n",
      '{"é":"ü","e":"\\u00e9","\\"":"\\\\","\\/":"/","\\b\\f\\n\\r\\t":1}',
      '{"\u{1f600}":1,"\ufb33":2,"B":3,"a":4,"10":5,"9":6}',
      `${"[".repeat(64)}${"]".repeat(64)}`,
      `${"[".repeat(65)}${"]".repeat(65)}`,
      `[${"0,".repeat(limits.maxArrayItems)}0]`,
      "",
      " ",
      "{} {}",
    ];
    for (const text of texts) assert.doesNotThrow(() => agrees(text), JSON.stringify(text.slice(0, 80)));
  });

  it("on the RFC 8785 vectors, writing the expected bytes", { skip: skipWithoutShared("vectors/jcs/input") }, () => {
    const names = readdirSync(sharedPath("vectors/jcs/input")).sort();
    let accepted = 0;
    for (const name of names) {
      const text = readFileSync(sharedPath(`vectors/jcs/input/${name}`), "utf8");
      assert.doesNotThrow(() => agrees(text), name);
      const parsed = parseCanonical(text, limits);
      // values.json spells 1E30, an integer past 2^53 that I-JSON refuses (and so both parses do, above).
      if (!parsed.ok) continue;
      accepted++;
      const expected = readFileSync(sharedPath(`vectors/jcs/output/${name}`));
      assert.deepEqual(Buffer.from(parsed.canonical, "utf8"), expected, name);
      if (parsed.members !== undefined) assert.deepEqual(Buffer.from(joinMembers(parsed.members), "utf8"), expected);
    }
    assert.ok(accepted >= 5, `vectors parsed: ${accepted} of ${names.length}`);
  });

  it("on mutated manifests (property)", async () => {
    const bases = [...shapes.map(([, text]) => text), ...suites.slice(0, 20).map(([, text]) => text)];
    await holds(
      "one pass agrees on mutated manifests",
      fc.property(fc.constantFrom(...bases).chain(mutatedText), (text) => agrees(text)),
      2000,
    );
  });

  it("on random JSON, spelt with escapes and spaces (property)", async () => {
    const spelt = fc
      .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 1, "\t", " \n "), fc.boolean())
      .map(([value, space, escaped]) => {
        const text = JSON.stringify(value, null, space);
        // In every string, each non-ASCII character and some ASCII as a \u escape: the same value, spelt otherwise.
        const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
        return escaped
          ? text.replace(/"(?:[^"\\]|\\.)*"/g, (string) =>
              string.replace(/[^\x00-\x7f]|(?<!\\u[0-9a-f]{0,3})[ae]/g, unicodeEscape),
            )
          : text;
      });
    await holds(
      "one pass agrees on random JSON",
      fc.property(spelt, (text) => agrees(text)),
      2000,
    );
  });
});
