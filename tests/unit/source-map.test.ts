import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { lineColumn, type SourceMap } from "../../core/json/source-map.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { parseJson } from "../../core/json/strict-json.ts";

const ROOMY = { maxDepth: 1000, maxArrayItems: Number.POSITIVE_INFINITY };

function sourceMapOf(text: string): SourceMap {
  const parsed = parseJson(text, ROOMY);
  assert.ok(parsed.ok, text);
  return parsed.source;
}

/** Every JSON pointer of `value` with the value there, the document's own order aside. */
function pointersOf(value: unknown, pointer = ""): [string, unknown][] {
  const children: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [`${pointer}/${i}`, v])
    : typeof value === "object" && value !== null
      ? Object.entries(value).map(([k, v]) => [`${pointer}/${escapePointerToken(k)}`, v])
      : [];
  return [[pointer, value], ...children.flatMap(([p, v]) => pointersOf(v, p))];
}

describe("the source map of a parse", () => {
  it("places values in nested objects and arrays", () => {
    const text = '{\n  "a": [1, {"b": [true, null]}],\n  "c": {"d": {}}\n}';
    const map = sourceMapOf(text);
    assert.deepEqual(map.place(""), { line: 1, column: 1 });
    assert.deepEqual(map.place("/a"), { line: 2, column: 8 });
    assert.deepEqual(map.place("/a/0"), { line: 2, column: 9 });
    assert.deepEqual(map.place("/a/1/b/1"), { line: 2, column: 25 });
    assert.deepEqual(map.place("/c/d"), { line: 3, column: 14 });
  });
  it("unescapes ~1 and ~0 in pointer tokens, ~1 first", () => {
    const text = '{\n  "a/b": [1, {"~x": true}],\n  "~1": 0,\n  "": null\n}';
    const map = sourceMapOf(text);
    assert.deepEqual(map.place("/a~1b"), { line: 2, column: 10 });
    assert.deepEqual(map.place("/a~1b/1/~0x"), { line: 2, column: 21 });
    assert.deepEqual(map.place("/~01"), { line: 3, column: 9 });
    assert.deepEqual(map.place("/"), { line: 4, column: 7 });
  });
  it("places a pointer to a missing value at its nearest existing parent", () => {
    const text = '{\n  "a": {\n    "b": [0]\n  }\n}';
    const map = sourceMapOf(text);
    assert.deepEqual(map.place("/a/missing"), { line: 2, column: 8 });
    assert.deepEqual(map.place("/a/b/7/c"), { line: 3, column: 10 });
    assert.deepEqual(map.place("/a/b/-"), { line: 3, column: 10 });
    assert.deepEqual(map.place("/a/b/00"), { line: 3, column: 10 }, "an index is written without leading zeros");
    assert.deepEqual(map.place("/a/b/0/deeper"), { line: 3, column: 11 }, "a number has no members");
    assert.deepEqual(map.place("/nothing/at/all"), { line: 1, column: 1 });
  });
  it("finds members named like Object.prototype's, and __proto__", () => {
    const text = '{"constructor": 1,\n "__proto__": {"toString": 2}}';
    const map = sourceMapOf(text);
    assert.deepEqual(map.place("/constructor"), { line: 1, column: 17 });
    assert.deepEqual(map.place("/__proto__"), { line: 2, column: 15 });
    assert.deepEqual(map.place("/__proto__/toString"), { line: 2, column: 28 });
    assert.deepEqual(map.place("/hasOwnProperty"), { line: 1, column: 1 });
  });
  it("counts members in document order, whatever order the object keeps them in", () => {
    // An object lists integer-like names first: the map must not go by its order.
    const map = sourceMapOf('{"b": 1, "10": 2, "a": [3], "2": 4}');
    assert.deepEqual(map.place("/10"), { line: 1, column: 16 });
    assert.deepEqual(map.place("/a/0"), { line: 1, column: 25 });
    assert.deepEqual(map.place("/2"), { line: 1, column: 34 });
  });
  it("counts columns in UTF-16 units, and lines by line feeds only", () => {
    const text = '{"a": "🚀 é\\n\\u2028",\r\n "b": [\n\n  "x\\ny", "z"]}';
    const map = sourceMapOf(text);
    assert.deepEqual(map.place("/b"), { line: 2, column: 7 });
    assert.deepEqual(map.place("/b/1"), { line: 4, column: 11 });
    const astral = sourceMapOf('["🚀🚀", 1]');
    assert.deepEqual(astral.place("/1"), { line: 1, column: 10 }, "each astral character is two units");
  });
  it("places every value where it starts, as lineColumn places its offset", () => {
    fc.assert(
      fc.property(fc.jsonValue({ depthSize: "medium" }), fc.integer({ min: 0, max: 3 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const parsed = parseJson(text, ROOMY);
        fc.pre(parsed.ok);
        if (!parsed.ok) return;
        for (const [pointer, at] of pointersOf(value)) {
          const offset = parsed.source.offsetOf(pointer);
          assert.deepEqual(parsed.source.place(pointer), lineColumn(text, offset));
          // What starts there is the value: parsed on its own, up to where the text holds it.
          assert.equal(text.startsWith(JSON.stringify(at, null, indent).split("\n")[0]!, offset), true, pointer);
        }
      }),
      { numRuns: 300 },
    );
  });
});
