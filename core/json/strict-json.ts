/**
 * A strict JSON parser for I-JSON (RFC 7493) input.
 *
 * `JSON.parse` keeps the last of duplicate member names and silently rounds numbers past
 * 2^53 (`9007199254740993.0` reads as ...992, however it is spelt), so a signature would
 * cover a different value than the file shows. This parser rejects both, numbers that
 * underflow to 0, and lone surrogates, with the offset of the offending token; as it goes,
 * it records where every value is (source-map.ts), to place later diagnostics.
 */
import { excerpt, quoted } from "../excerpt.ts";
import type { RuleId } from "../rules/index.ts";
import { lineColumn, sourceMap, type SourceMap, type ValueRecords } from "./source-map.ts";

export interface JsonProblem {
  rule: RuleId;
  message: string;
  offset: number;
}

export type JsonParseResult = { ok: true; value: unknown; source: SourceMap } | { ok: false; problem: JsonProblem };

/** Bounds on the shape of a document: a hostile file must not cost unbounded time or memory. */
export interface ShapeLimits {
  /** Containers nested in one another, the outermost counting 1. */
  maxDepth: number;
  /** Elements in one array. */
  maxArrayItems: number;
}

/**
 * `limits` has no default: the parser recurses once per container, so a text nested deep
 * enough (a 40 KB one suffices) would overflow the stack with a `RangeError` where a
 * `limits/depth` problem belongs. Every caller says how deep its document may be.
 */
export function parseJson(text: string, limits: ShapeLimits): JsonParseResult {
  const parser = new Parser(text, limits);
  try {
    const value = parser.document();
    return { ok: true, value, source: sourceMap(text, parser.records) };
  } catch (error) {
    if (error instanceof ProblemError) return { ok: false, problem: error.problem };
    throw error;
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class ProblemError extends Error {
  constructor(readonly problem: JsonProblem) {
    super(problem.message);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
/** A run of string characters that need no attention: no quote, backslash or control character. */
const PLAIN_CHARS = /[^"\\\x00-\x1f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Parser {
  #pos = 0;
  #depth = 0;
  readonly records: ValueRecords = { starts: [], ends: [], names: [] };

  /** No lone surrogate in the text: then only a \u escape can put one in a string. */
  readonly #wellFormed: boolean;

  constructor(
    readonly text: string,
    readonly limits: ShapeLimits,
  ) {
    this.#wellFormed = text.isWellFormed();
  }

  document(): unknown {
    this.#skipSpace();
    const value = this.#value("");
    this.#skipSpace();
    if (this.#pos < this.text.length) this.#fail("json/syntax", "unexpected content after the JSON value");
    return value;
  }

  #fail(rule: RuleId, message: string, offset = this.#pos): never {
    throw new ProblemError({ rule, message, offset });
  }

  #skipSpace(): void {
    this.#pos = pastSpace(this.text, this.#pos);
  }

  /** `name`: the value's member name, for a member of an object. */
  #value(name: string): unknown {
    const { starts, ends, names } = this.records;
    const index = starts.length;
    starts.push(this.#pos);
    ends.push(index + 1);
    names.push(name);
    const c = this.text[this.#pos];
    if ((c === "{" || c === "[") && ++this.#depth > this.limits.maxDepth) {
      this.#fail("limits/depth", `containers nested more than ${this.limits.maxDepth} deep`);
    }
    switch (c) {
      case "{":
        return this.#object(index);
      case "[":
        return this.#array(index);
      case '"':
        return this.#string();
      case "t":
        return this.#literal("true", true);
      case "f":
        return this.#literal("false", false);
      case "n":
        return this.#literal("null", null);
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.#number();
        return this.#fail(
          "json/syntax",
          c === undefined ? "unexpected end of input" : `unexpected character ${JSON.stringify(c)}`,
        );
    }
  }

  #literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.#pos))
      this.#fail("json/syntax", `unexpected character ${JSON.stringify(this.text[this.#pos])}`);
    this.#pos += word.length;
    return value;
  }

  /** Closes the container at `index` (in document order): its descendants are the values recorded since. */
  #close(index: number): void {
    this.#pos++;
    this.#depth--;
    this.records.ends[index] = this.records.starts.length;
  }

  #object(index: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.#pos++;
    this.#skipSpace();
    if (this.text[this.#pos] === "}") {
      this.#close(index);
      return object;
    }
    for (;;) {
      if (this.text[this.#pos] !== '"') this.#fail("json/syntax", "expected a member name in double quotes");
      const keyOffset = this.#pos;
      const key = this.#string();
      if (Object.hasOwn(object, key)) {
        const at = lineColumn(this.text, memberNameBefore(this.text, this.#memberStart(index, key)));
        this.#fail(
          "json/duplicate-key",
          `duplicate member name ${quoted(key)} (first at ${at.line}:${at.column})`,
          keyOffset,
        );
      }
      this.#skipSpace();
      if (this.text[this.#pos] !== ":") this.#fail("json/syntax", "expected ':' after the member name");
      this.#pos++;
      this.#skipSpace();
      const value = this.#value(key);
      // A member named "__proto__" must stay plain data: assigning it would set the prototype.
      if (key === "__proto__")
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      this.#skipSpace();
      const c = this.text[this.#pos];
      if (c === "}") {
        this.#close(index);
        return object;
      }
      if (c !== ",") this.#fail("json/syntax", "expected ',' or '}'");
      this.#pos++;
      this.#noTrailingComma("}");
    }
  }

  /** Where the value of the member `key` of the object at `index`, recorded already, starts. */
  #memberStart(index: number, key: string): number {
    const { starts, ends, names } = this.records;
    let member = index + 1;
    while (names[member] !== key) member = ends[member]!;
    return starts[member]!;
  }

  #array(index: number): unknown[] {
    const array: unknown[] = [];
    this.#pos++;
    this.#skipSpace();
    if (this.text[this.#pos] === "]") {
      this.#close(index);
      return array;
    }
    for (;;) {
      if (array.length === this.limits.maxArrayItems)
        this.#fail("limits/array-length", `array has more than ${this.limits.maxArrayItems} elements`);
      array.push(this.#value(""));
      this.#skipSpace();
      const c = this.text[this.#pos];
      if (c === "]") {
        this.#close(index);
        return array;
      }
      if (c !== ",") this.#fail("json/syntax", "expected ',' or ']'");
      this.#pos++;
      this.#noTrailingComma("]");
    }
  }

  /** After a comma: the next value must follow. A comma before `close` is reported where it stands, not at `close`. */
  #noTrailingComma(close: "}" | "]"): void {
    const comma = this.#pos - 1;
    this.#skipSpace();
    if (this.text[this.#pos] === close)
      this.#fail("json/syntax", `trailing comma before '${close}': JSON allows none; delete it`, comma);
  }

  #string(): string {
    const text = this.text;
    const start = this.#pos;
    // Most strings hold no escape: the regular expression skips them natively.
    PLAIN_CHARS.lastIndex = start + 1;
    PLAIN_CHARS.test(text);
    let pos = PLAIN_CHARS.lastIndex;
    let out = "";
    let chunk = start + 1;
    let unitEscaped = false;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (Number.isNaN(c)) this.#fail("json/syntax", "unterminated string", start);
      if (c < 0x20) this.#fail("json/syntax", "control character in string; escape it", pos);
      if (c === 0x5c) {
        out += text.slice(chunk, pos);
        const e = text[pos + 1];
        if (e === "u") {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.#fail("json/syntax", "invalid \\u escape", pos);
          out += String.fromCharCode(parseInt(hex, 16));
          unitEscaped = true;
          pos += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          out += ESCAPES[e];
          pos += 2;
        } else {
          this.#fail("json/syntax", "invalid escape sequence", pos);
        }
        chunk = pos;
      } else {
        pos++;
      }
    }
    out += text.slice(chunk, pos);
    this.#pos = pos + 1;
    // Chunks of a well-formed text are cut at ASCII characters, never between the halves of a pair.
    if ((unitEscaped || !this.#wellFormed) && !out.isWellFormed())
      this.#fail(
        "json/lone-surrogate",
        "string contains a lone surrogate (a code unit from U+D800 to U+DFFF without its pair)",
        start,
      );
    return out;
  }

  #number(): number {
    const start = this.#pos;
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.text);
    if (match === null) return this.#fail("json/syntax", "invalid number");
    this.#pos = start + match[0].length;
    const value = Number(match[0]);
    if (!Number.isFinite(value))
      this.#fail("json/number-range", `number ${excerpt(match[0])} is outside the range of a double`, start);
    if (value === 0 && /[1-9]/.test(match[0].split(/[eE]/)[0]!))
      this.#fail("json/number-range", `number ${excerpt(match[0])} is too small for a double: it reads as 0`, start);
    // A literal whose exact value is beyond 2^53-1 reads as a double at least that large,
    // so only those are looked at digit by digit (9007199254740993.0 reads as ...992).
    if (Math.abs(value) >= Number.MAX_SAFE_INTEGER) {
      const beyond = beyondSafeRange(match[0]);
      if (beyond !== undefined) {
        const [rule, kind] =
          beyond === "integer"
            ? (["json/unsafe-integer", "integer"] as const)
            : (["json/unsafe-number", "number"] as const);
        this.#fail(
          rule,
          `${kind} ${excerpt(match[0])} is beyond ±(2^53-1), where JSON numbers stop being ` +
            `exact (I-JSON, RFC 7493): it reads as ${JSON.stringify(value)}`,
          start,
        );
      }
    }
    return value;
  }
}

/** The offset of the first character at or after `pos` that is not JSON whitespace. */
export function pastSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return pos;
  }
}

const SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/**
 * Whether a number literal's exact value has a magnitude beyond 2^53-1, decided on its
 * decimal digits (no BigInt of a hostile length): "integer" or "number" (with a fraction)
 * if so. The value is 0.D × 10^k, D its significant digits.
 */
function beyondSafeRange(literal: string): "integer" | "number" | undefined {
  const [, whole = "", fraction = "", exponent = "0"] = /^-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(
    literal,
  )!;
  const all = whole + fraction;
  const leading = all.length - all.replace(/^0+/, "").length;
  // Not /0+$/, which tries each zero of a run as a start: quadratic in a long run before a last digit.
  let end = all.length;
  while (end > leading && all.charCodeAt(end - 1) === 0x30) end--;
  const digits = all.slice(leading, end);
  if (digits === "") return undefined;
  const k = whole.length - leading + Number(exponent);
  const head = digits.slice(0, SAFE_DIGITS.length).padEnd(SAFE_DIGITS.length, "0");
  const beyond =
    k > SAFE_DIGITS.length ||
    (k === SAFE_DIGITS.length && (head > SAFE_DIGITS || (head === SAFE_DIGITS && digits.length > SAFE_DIGITS.length)));
  if (!beyond) return undefined;
  return digits.length <= k ? "integer" : "number";
}

/**
 * Where the name of the member whose value starts at `valueStart` begins: found only to
 * report a duplicate, from the recorded value, so that parsing need not record every
 * member name's offset too. The text before it is valid JSON: `"name"`, space, `:`, space.
 */
function memberNameBefore(text: string, valueStart: number): number {
  let pos = valueStart - 1;
  while (text.charCodeAt(pos) !== 0x3a /* : */) pos--;
  pos--;
  while (text.charCodeAt(pos) !== 0x22 /* " */) pos--;
  // Back to the opening quote: the first one before the closing quote that no odd run of backslashes escapes.
  for (pos = text.lastIndexOf('"', pos - 1); ; pos = text.lastIndexOf('"', pos - 1)) {
    let backslashes = 0;
    while (text.charCodeAt(pos - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return pos;
  }
}
