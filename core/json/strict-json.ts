/**
 * A strict JSON parser for I-JSON (RFC 7493) input.
 *
 * `JSON.parse` keeps the last of duplicate member names and silently rounds numbers past
 * 2^53 (`9007199254740993.0` reads as ...992, however it is spelt), so a signature would
 * cover a different value than the file shows. This parser rejects both, numbers that
 * underflow to 0, and lone surrogates, with the offset of the offending token; it can also
 * record where every value starts, keyed by JSON pointer, to place later diagnostics.
 */
import { excerpt, quoted } from "../excerpt.ts";
import type { RuleId } from "../rules/index.ts";

export interface JsonProblem {
  rule: RuleId;
  message: string;
  offset: number;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

/** Bounds on the shape of a document: a hostile file must not cost unbounded time or memory. */
export interface ShapeLimits {
  /** Containers nested in one another, the outermost counting 1. */
  maxDepth: number;
  /** Elements in one array. */
  maxArrayItems: number;
}

const UNLIMITED: ShapeLimits = { maxDepth: Infinity, maxArrayItems: Infinity };

export function parseJson(text: string, limits: ShapeLimits = UNLIMITED): JsonParseResult {
  const parser = new Parser(text, undefined, limits);
  try {
    return { ok: true, value: parser.document() };
  } catch (error) {
    if (error instanceof ProblemError) return { ok: false, problem: error.problem };
    throw error;
  }
}

/**
 * Where each value of a valid document starts: JSON pointer → offset. Built on demand,
 * only when a diagnostic has to be placed, so the common case pays nothing for it.
 */
export function valueOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  new Parser(text, offsets, UNLIMITED).document();
  return offsets;
}

/** 1-based line and column (in UTF-16 units, as editors count) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
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

  constructor(
    readonly text: string,
    readonly offsets: Map<string, number> | undefined,
    readonly limits: ShapeLimits,
    readonly start = 0,
    /** Filled with the offsets of the member names of the object at `start`. */
    readonly names?: Map<string, number>,
  ) {
    this.#pos = start;
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
    const text = this.text;
    let pos = this.#pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.#pos = pos;
  }

  #value(pointer: string): unknown {
    this.offsets?.set(pointer, this.#pos);
    const c = this.text[this.#pos];
    if ((c === "{" || c === "[") && ++this.#depth > this.limits.maxDepth) {
      this.#fail("limits/depth", `containers nested more than ${this.limits.maxDepth} deep`);
    }
    switch (c) {
      case "{":
        return this.#object(pointer);
      case "[":
        return this.#array(pointer);
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

  #object(pointer: string): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const start = this.#pos;
    this.#pos++;
    this.#skipSpace();
    if (this.text[this.#pos] === "}") {
      this.#pos++;
      this.#depth--;
      return object;
    }
    for (;;) {
      if (this.text[this.#pos] !== '"') this.#fail("json/syntax", "expected a member name in double quotes");
      const keyOffset = this.#pos;
      const key = this.#string();
      if (start === this.start && this.names?.has(key) === false) this.names.set(key, keyOffset);
      if (Object.hasOwn(object, key)) {
        // Only a pass of memberNameOffset records names: it meets this duplicate again, and
        // must stop there, not look for the first copy in a pass of its own, and so on.
        if (this.names !== undefined) this.#fail("json/duplicate-key", "", keyOffset);
        const at = lineColumn(this.text, memberNameOffset(this.text, start, key));
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
      const value = this.#value(this.offsets ? `${pointer}/${escapePointerToken(key)}` : "");
      // A member named "__proto__" must stay plain data: assigning it would set the prototype.
      if (key === "__proto__")
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      else object[key] = value;
      this.#skipSpace();
      const c = this.text[this.#pos++];
      if (c === "}") {
        this.#depth--;
        return object;
      }
      if (c !== ",") this.#fail("json/syntax", "expected ',' or '}'", this.#pos - 1);
      this.#noTrailingComma("}");
    }
  }

  #array(pointer: string): unknown[] {
    const array: unknown[] = [];
    this.#pos++;
    this.#skipSpace();
    if (this.text[this.#pos] === "]") {
      this.#pos++;
      this.#depth--;
      return array;
    }
    for (;;) {
      if (array.length === this.limits.maxArrayItems)
        this.#fail("limits/array-length", `array has more than ${this.limits.maxArrayItems} elements`);
      array.push(this.#value(this.offsets ? `${pointer}/${array.length}` : ""));
      this.#skipSpace();
      const c = this.text[this.#pos++];
      if (c === "]") {
        this.#depth--;
        return array;
      }
      if (c !== ",") this.#fail("json/syntax", "expected ',' or ']'", this.#pos - 1);
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
    if (!out.isWellFormed())
      this.#fail("json/lone-surrogate", "string contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape)", start);
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
          `${kind} ${excerpt(match[0])} is beyond ±(2^53-1), where JSON numbers stop being exact (I-JSON, RFC 7493): it reads as ${JSON.stringify(value)}`,
          start,
        );
      }
    }
    return value;
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
 * Where the member named `key` of the object at `objectStart` begins: found again only
 * to report a duplicate, so that parsing need not record every member's offset.
 */
function memberNameOffset(text: string, objectStart: number, key: string): number {
  const names = new Map<string, number>();
  try {
    new Parser(text, undefined, UNLIMITED, objectStart, names).document();
  } catch {
    // It fails at the duplicate again (or at the text after the object), after the first copy.
  }
  return names.get(key)!;
}
