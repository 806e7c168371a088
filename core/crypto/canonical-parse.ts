/**
 * A manifest's text, parsed strictly and canonicalized (JCS, RFC 8785) at once: the check's
 * hot path, where `parseJson` then `canonicalMembers` built every value in JavaScript, walked
 * it again to canonicalize it, and recorded where every value is for the few files with a
 * problem to place.
 *
 * One scan of the text checks what `parseJson` checks and writes each value's canonical text
 * as it goes, building no value: a string without an escape, and an integer of at most 15
 * digits, is its own source text; an object's members are put in order of their names (UTF-16
 * code units) as they come, and a name met twice ends the scan. A string with an escape, and
 * any other number, is read by `parseJson` alone, the one reader of escapes and of a number's
 * exactness, and written as JCS writes it. A text the scan accepts is then built by the native
 * `JSON.parse`, which gives the same value for it: no duplicate name, no inexact number, no
 * lone surrogate is left for it to treat otherwise. On the bench's manifests the two take
 * 28 µs where `parseJson` and `canonicalMembers` took 39 (docs/benchmarks.md).
 *
 * The scan records where a value starts only for the root, its members and theirs (the places
 * every file's entry keeps: `/@id`, `/signature/statusRef`); a deeper pointer is placed by
 * parsing again with `parseJson`, once, for a file with a problem there. A text the scan
 * refuses is parsed again by `parseJson`, so that every problem is the one it reports.
 */
import { canonicalize, canonicalMembers, type CanonicalMembers, joinMembers } from "./jcs.ts";
import { type Place, type SourceMap, type ValueRecords, sourceMap } from "../json/source-map.ts";
import { isJsonObject, type JsonParseResult, parseJson, pastSpace, type ShapeLimits } from "../json/strict-json.ts";

/**
 * A parse's result; parsed, with the value's JCS text and, for an object, its members in
 * canonical order, as `canonicalMembers` gives them (joined, they are the JCS text).
 */
export type CanonicalParseResult =
  | (Extract<JsonParseResult, { ok: true }> & { canonical: string; members?: CanonicalMembers })
  | Extract<JsonParseResult, { ok: false }>;

/** `text` parsed as `parseJson` parses it, with its canonical form. */
export function parseCanonical(text: string, limits: ShapeLimits): CanonicalParseResult {
  const scan = new CanonicalScan(text, limits);
  if (scan.document()) {
    const source = new ShallowSourceMap(text, limits, scan.records);
    const { canonical, members } = scan;
    return { ok: true, value: JSON.parse(text), source, canonical, ...(members && { members }) };
  }
  const parsed = parseJson(text, limits);
  if (!parsed.ok) return parsed;
  if (!isJsonObject(parsed.value)) return { ...parsed, canonical: canonicalize(parsed.value) };
  const members = canonicalMembers(parsed.value);
  return { ...parsed, canonical: joinMembers(members), members };
}

/** A run of string characters that need no attention: no quote, backslash or control character. */
const PLAIN_CHARS = /[^"\\\x00-\x1f]*/y;
/** A run of the characters a number may have. */
const NUMBER_CHARS = /[0-9.eE+-]*/y;
/** Values recorded: the root, its members or elements, and theirs. */
const RECORDED_DEPTH = 2;
/** The longest run of digits whose integer JCS writes as the digits themselves: 2^53 has 16. */
const PLAIN_INTEGER_DIGITS = 15;

/** Each method reads one value, sets `#canonical` to its canonical text, and returns false where parseJson fails. */
class CanonicalScan {
  #pos = 0;
  #depth = 0;
  /** The canonical text of the value read last: after `document()`, the root's. */
  #canonical = "";
  /** The member name read last. */
  #name = "";
  /** The root's members, when it is an object. */
  members: CanonicalMembers | undefined;
  readonly records: ValueRecords = { starts: [], ends: [], names: [] };
  /** No lone surrogate in the text: then only a \u escape can put one in a string. */
  readonly #wellFormed: boolean;

  constructor(
    readonly text: string,
    readonly limits: ShapeLimits,
  ) {
    this.#wellFormed = text.isWellFormed();
  }

  get canonical(): string {
    return this.#canonical;
  }

  document(): boolean {
    this.#skipSpace();
    if (!this.#value("")) return false;
    this.#skipSpace();
    return this.#pos === this.text.length;
  }

  #skipSpace(): void {
    this.#pos = pastSpace(this.text, this.#pos);
  }

  /** `name`: the value's member name, for a member of an object. */
  #value(name: string): boolean {
    const c = this.text.charCodeAt(this.#pos);
    let index = -1;
    if (this.#depth <= RECORDED_DEPTH) {
      const { starts, ends, names } = this.records;
      index = starts.length;
      starts.push(this.#pos);
      ends.push(index + 1);
      names.push(name);
    }
    switch (c) {
      case 0x7b /* { */:
        return ++this.#depth <= this.limits.maxDepth && this.#object(index);
      case 0x5b /* [ */:
        return ++this.#depth <= this.limits.maxDepth && this.#array(index);
      case 0x22 /* " */:
        return this.#string(false);
      case 0x74 /* t */:
        return this.#word("true");
      case 0x66 /* f */:
        return this.#word("false");
      case 0x6e /* n */:
        return this.#word("null");
      default:
        return (c === 0x2d || (c >= 0x30 && c <= 0x39)) && this.#number();
    }
  }

  /**
   * The value of the literal from `start` to `end`, read by parseJson, the one reader of an escape sequence and of a
   * number's exactness (the uncommon literals), and the scan moved past it; undefined where parseJson refuses it.
   */
  #literal(start: number, end: number): unknown {
    const parsed = parseJson(this.text.slice(start, end), this.limits);
    if (!parsed.ok) return undefined;
    this.#pos = end;
    return parsed.value;
  }

  #word(word: string): boolean {
    if (!this.text.startsWith(word, this.#pos)) return false;
    this.#pos += word.length;
    this.#canonical = word;
    return true;
  }

  /** Closes the container at `index` (in document order, -1 if unrecorded): its descendants are those recorded since. */
  #close(index: number): void {
    this.#pos++;
    this.#depth--;
    if (index >= 0) this.records.ends[index] = this.records.starts.length;
  }

  #object(index: number): boolean {
    const text = this.text;
    const members: CanonicalMembers = [];
    this.#pos++;
    this.#skipSpace();
    if (text.charCodeAt(this.#pos) !== 0x7d /* } */) {
      for (;;) {
        if (text.charCodeAt(this.#pos) !== 0x22 || !this.#string(true)) return false;
        const name = this.#name;
        const canonicalName = this.#canonical;
        this.#skipSpace();
        if (text.charCodeAt(this.#pos) !== 0x3a /* : */) return false;
        this.#pos++;
        this.#skipSpace();
        if (!this.#value(name) || !insertSorted(members, name, `${canonicalName}:${this.#canonical}`)) return false;
        this.#skipSpace();
        const c = text.charCodeAt(this.#pos);
        if (c === 0x7d) break;
        if (c !== 0x2c /* , */ || !this.#nextAfterComma(0x7d)) return false;
      }
    }
    this.#close(index);
    this.#canonical = joinMembers(members);
    if (this.#depth === 0) this.members = members;
    return true;
  }

  #array(index: number): boolean {
    const text = this.text;
    let canonical = "[";
    let length = 0;
    this.#pos++;
    this.#skipSpace();
    if (text.charCodeAt(this.#pos) !== 0x5d /* ] */) {
      for (;;) {
        if (length === this.limits.maxArrayItems || !this.#value("")) return false;
        canonical += length++ === 0 ? this.#canonical : `,${this.#canonical}`;
        this.#skipSpace();
        const c = text.charCodeAt(this.#pos);
        if (c === 0x5d) break;
        if (c !== 0x2c || !this.#nextAfterComma(0x5d)) return false;
      }
    }
    this.#close(index);
    this.#canonical = `${canonical}]`;
    return true;
  }

  /** Past a comma: false if `close` follows (a trailing comma). */
  #nextAfterComma(close: number): boolean {
    this.#pos++;
    this.#skipSpace();
    return this.text.charCodeAt(this.#pos) !== close;
  }

  /** `isName`: a member name, kept in `#name`. */
  #string(isName: boolean): boolean {
    const text = this.text;
    const start = this.#pos;
    PLAIN_CHARS.lastIndex = start + 1;
    PLAIN_CHARS.test(text);
    const end = PLAIN_CHARS.lastIndex;
    if (text.charCodeAt(end) !== 0x22) return this.#escapedString(start, isName);
    this.#pos = end + 1;
    this.#canonical = text.slice(start, end + 1);
    if (isName) this.#name = text.slice(start + 1, end);
    // Chunks of a well-formed text are cut at ASCII characters, never between the halves of a pair.
    return this.#wellFormed || this.#canonical.isWellFormed();
  }

  /** A string with an escape (or a problem): decoded, and written as JSON.stringify writes it, as JCS does. */
  #escapedString(start: number, isName: boolean): boolean {
    const text = this.text;
    let end = start + 1;
    for (let c = text.charCodeAt(end); c !== 0x22; c = text.charCodeAt(++end)) {
      if (c === 0x5c) end++;
      else if (Number.isNaN(c)) return false;
    }
    const value = this.#literal(start, end + 1);
    if (typeof value !== "string") return false;
    this.#canonical = JSON.stringify(value);
    if (isName) this.#name = value;
    return true;
  }

  #number(): boolean {
    const text = this.text;
    const start = this.#pos;
    let pos = text.charCodeAt(start) === 0x2d ? start + 1 : start;
    const first = pos;
    for (let c = text.charCodeAt(pos); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++pos));
    const digits = pos - first;
    const next = text.charCodeAt(pos);
    // A plain integer (no fraction or exponent, no leading zero, not -0, exact) is written as it is spelt.
    if (
      digits > 0 &&
      digits <= PLAIN_INTEGER_DIGITS &&
      next !== 0x2e /* . */ &&
      (next | 0x20) !== 0x65 /* e or E */ &&
      (text.charCodeAt(first) !== 0x30 || (digits === 1 && first === start))
    ) {
      this.#pos = pos;
      this.#canonical = text.slice(start, pos);
      return true;
    }
    // The token ends where no character of a number can follow, which in valid JSON is where the number ends.
    NUMBER_CHARS.lastIndex = pos;
    NUMBER_CHARS.test(text);
    const value = this.#literal(start, NUMBER_CHARS.lastIndex);
    if (typeof value !== "number") return false;
    this.#canonical = JSON.stringify(value);
    return true;
  }
}

/** Adds a member in order of names (UTF-16 code units), by insertion: an object has few. False for a name met before. */
function insertSorted(members: CanonicalMembers, name: string, member: string): boolean {
  const entry: [string, string] = [name, member];
  let at = members.length;
  members.push(entry);
  while (at > 0) {
    const before = members[at - 1]!;
    if (before[0] < name) break;
    if (before[0] === name) return false;
    members[at] = before;
    at--;
  }
  members[at] = entry;
  return true;
}

/**
 * Where values are: from the scan's records for a pointer of at most RECORDED_DEPTH tokens,
 * else from `parseJson`'s, made on first use.
 */
class ShallowSourceMap implements SourceMap {
  readonly #shallow: SourceMap;
  #full: SourceMap | undefined;

  constructor(
    readonly text: string,
    readonly limits: ShapeLimits,
    records: ValueRecords,
  ) {
    this.#shallow = sourceMap(text, records);
  }

  offsetOf(pointer: string): number {
    return this.#for(pointer).offsetOf(pointer);
  }

  place(pointer: string): Place {
    return this.#for(pointer).place(pointer);
  }

  #for(pointer: string): SourceMap {
    let tokens = 0;
    for (let i = pointer.indexOf("/"); i !== -1; i = pointer.indexOf("/", i + 1)) tokens++;
    if (tokens <= RECORDED_DEPTH) return this.#shallow;
    if (this.#full === undefined) {
      const parsed = parseJson(this.text, this.limits);
      // The scan accepts only what parseJson accepts (tests/canonical-parse.test.ts).
      if (!parsed.ok) throw new Error(`the scan accepted a text parseJson refuses: ${parsed.problem.message}`);
      this.#full = parsed.source;
    }
    return this.#full;
  }
}
