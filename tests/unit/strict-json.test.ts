import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { lineColumn } from "../../core/json/source-map.ts";
import { parseJson } from "../../core/json/strict-json.ts";

/** Deep and long enough for every document these tests make: the limits themselves are tested below. */
const ROOMY = { maxDepth: 1000, maxArrayItems: Number.POSITIVE_INFINITY };

function problemAt(text: string) {
  const result = parseJson(text, ROOMY);
  assert.equal(result.ok, false, `${JSON.stringify(text)} must be rejected`);
  if (result.ok) throw new Error("unreachable");
  return { rule: result.problem.rule, ...lineColumn(text, result.problem.offset), message: result.problem.message };
}

/** A number beyond ±(2^53-1), where doubles stop being exact: what I-JSON forbids, however written. */
function hasUnsafeNumber(value: unknown): boolean {
  if (typeof value === "number") return Math.abs(value) > Number.MAX_SAFE_INTEGER;
  if (typeof value === "object" && value !== null) return Object.values(value).some(hasUnsafeNumber);
  return false;
}

describe("strict JSON", () => {
  it("parses what JSON.parse parses, to the same value, and rejects only numbers beyond ±(2^53-1)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: "medium" }), (value) => {
        const text = JSON.stringify(value, null, 1);
        const result = parseJson(text, ROOMY);
        assert.equal(result.ok, !hasUnsafeNumber(value), text);
        if (result.ok) assert.deepEqual(result.value, JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });
  it("rejects a duplicate member name, at the duplicate, naming the first", () => {
    const p = problemAt('{\n  "a": 1,\n  "b": {"c": 1, "c": 2}\n}');
    assert.deepEqual([p.rule, p.line, p.column], ["json/duplicate-key", 3, 17]);
    // The member, and where its first copy is.
    assert.ok(p.message.includes('"c"') && p.message.includes("3:9"), p.message);
  });
  // Not timed: a pass per level of the stack took 15 s here, past the test's timeout; the recorded members take
  // milliseconds.
  it("finds the first copy of a duplicate among the members recorded, without another pass", {
    timeout: 10_000,
  }, () => {
    const members = Array.from({ length: 5000 }, (_, i) => `"k${i}": ${i}`).join(", ");
    const p = problemAt(`{${members}, "k0": 1}`);
    assert.deepEqual([p.rule, p.message], ["json/duplicate-key", 'duplicate member name "k0" (first at 1:2)']);
  });
  it("names the first copy in the same object, not a namesake nested in it", () => {
    const p = problemAt('{"c": {"c": 1}, "x": 0,\n "c": 2}');
    assert.deepEqual([p.rule, p.line, p.column], ["json/duplicate-key", 2, 2]);
    assert.ok(p.message.includes('"c"') && p.message.includes("1:2"), p.message);
    assert.ok(problemAt('{"__proto__": 1, "__proto__": 2}').message.includes("1:2"));
  });
  it("finds the start of a first copy whose name holds escaped quotes and backslashes", () => {
    for (const name of [String.raw`a\"b`, String.raw`a\\`, String.raw`\"`, String.raw`\\\"x`]) {
      const text = `${String.raw`{"x": "\\",`}\n  "${name}" :\t1, "${name}": 2}`;
      assert.match(problemAt(text).message, /\(first at 2:3\)$/, text);
    }
  });
  it("compares member names after unescaping", () =>
    assert.equal(problemAt('{"a": 1, "\\u0061": 2}').rule, "json/duplicate-key"));
  it("rejects lone surrogates", () => {
    assert.equal(problemAt('["\\uD800"]').rule, "json/lone-surrogate");
    assert.equal(problemAt('{"\\uDC00x": 1}').rule, "json/lone-surrogate");
    assert.ok(parseJson('"\\uD83D\\uDE80"', ROOMY).ok, "a pair is fine");
    // Text a library caller passes may hold one unescaped.
    const p = problemAt('["ok", "a\uDE80"]');
    assert.deepEqual([p.rule, p.line, p.column], ["json/lone-surrogate", 1, 8]);
    assert.ok(parseJson('"\\uD83D\uDE80"', ROOMY).ok, "an escaped half and an unescaped one are a pair too");
  });
  it("rejects integers outside the exactly representable range", () => {
    assert.ok(parseJson("[9007199254740991, -9007199254740991]", ROOMY).ok);
    const p = problemAt('{\n "n": 9007199254740993}');
    assert.deepEqual([p.rule, p.line, p.column], ["json/unsafe-integer", 2, 7]);
    assert.equal(problemAt("[-9007199254740992]").rule, "json/unsafe-integer");
    assert.equal(problemAt("[1e400]").rule, "json/number-range");
    assert.ok(parseJson("[1.5e-300, 0.1, -0, 0e-999, 123.456]", ROOMY).ok, "small numbers are doubles as written");
  });
  it("refuses an integer beyond ±(2^53-1) however it is spelt, and what underflows to 0", () => {
    for (const spelling of [
      "9007199254740993.0",
      "9.007199254740993e15",
      "90071992547409930e-1",
      "0.00000000009007199254740993e26",
      "-9007199254740992.000",
      "1e16",
      "1.5e300",
    ]) {
      const p = problemAt(`{"n": ${spelling}}`);
      assert.deepEqual([p.rule, p.column], ["json/unsafe-integer", 7], spelling);
    }
    // The number as written, and what it reads as.
    const unsafe = problemAt("[9007199254740993.0]").message;
    assert.ok(unsafe.includes("9007199254740993.0") && unsafe.endsWith(" 9007199254740992"), unsafe);
    assert.equal(problemAt("[9007199254740991.5]").rule, "json/unsafe-number");
    assert.equal(problemAt("[1e-400]").rule, "json/number-range");
    assert.ok(
      parseJson("[9007199254740991.0, 9.007199254740991e15, -9007199254740991e0, 1e15]", ROOMY).ok,
      "up to 2^53-1, any spelling",
    );
    assert.ok(parseJson(`[1${"0".repeat(100_000)}e-100000]`, ROOMY).ok, "long spellings cost no big arithmetic");
  });
  // Not timed: the quadratic reading this replaced took 11 s here, past the test's timeout; a linear one takes
  // milliseconds.
  it("reads a long run of zeros before a last digit in linear time, not quadratic", { timeout: 10_000 }, () => {
    assert.equal(problemAt(`[9007199254740993.${"0".repeat(200_000)}1]`).rule, "json/unsafe-number");
  });
  it("places syntax errors", () => {
    const cases: [string, number, number][] = [
      ['{"a": 1 2}', 1, 9],
      ["[1 2]", 1, 4],
      ['{"a" 1}', 1, 6],
      ["\n\n  tru", 3, 3],
      ['"abc', 1, 1],
      ['["a\tb"]', 1, 4],
      ["{} x", 1, 4],
      ["", 1, 1],
      ["[01]", 1, 3],
      ['"\\x"', 1, 2],
      ["{'a': 1}", 1, 2],
    ];
    for (const [text, line, column] of cases) {
      const p = problemAt(text);
      assert.deepEqual([p.rule, p.line, p.column], ["json/syntax", line, column], JSON.stringify(text));
    }
  });
  it("reports a trailing comma at the comma, not at the bracket after it", () => {
    for (const [text, line, column] of [
      ['{"a": 1,}', 1, 8],
      ['{\n  "a": 1,\n\n}', 2, 9],
      ["[1, 2 ,\n]", 1, 7],
    ] as const) {
      const p = problemAt(text);
      assert.deepEqual([p.rule, p.line, p.column], ["json/syntax", line, column], JSON.stringify(text));
      // It names the bracket the comma is before.
      assert.ok(p.message.includes(`'${text.trimEnd().at(-1)}'`), p.message);
    }
  });
  it("keeps a member named __proto__ as plain data", () => {
    const result = parseJson('{"__proto__": {"polluted": true}}', ROOMY);
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    assert.deepEqual(Object.keys(result.value as object), ["__proto__"]);
  });
  it("holds to its limits: too deep or too long is a problem at its place, however deep the text goes", () => {
    const limits = { maxDepth: 3, maxArrayItems: 2 };
    for (const [text, rule, offset] of [
      ["[[[[]]]]", "limits/depth", 3],
      [`{"a":${"[".repeat(100_000)}`, "limits/depth", 7],
      ["[[1,2,3]]", "limits/array-length", 6],
    ] as const) {
      const result = parseJson(text, limits);
      assert.deepEqual(
        result.ok ? undefined : [result.problem.rule, result.problem.offset],
        [rule, offset],
        text.slice(0, 20),
      );
    }
    assert.ok(parseJson("[[[1,2]]]", limits).ok, "as deep and as long as allowed");
  });
});
