/**
 * Where the values of a parsed JSON document are in its text, recorded by the one strict
 * parse (strict-json.ts) as it goes, so that a diagnostic is placed without parsing again.
 *
 * The parse records, for each value in document order, where it starts, the index after
 * its last descendant, and its member name (for a member of an object): three flat arrays
 * and no pointer string, so that the common case, a document with nothing to place, pays
 * little. A pointer is looked up by walking its tokens from the root.
 */
import { unescapePointerToken } from "./pointer.ts";

export interface Place {
  /** 1-based, as editors count. */
  line: number;
  /** 1-based, in UTF-16 code units, as editors count. */
  column: number;
}

export interface SourceMap {
  /**
   * Where the value at the JSON pointer `pointer` starts; for a pointer to a value that does
   * not exist (a missing member), where its nearest existing parent does.
   */
  offsetOf(pointer: string): number;
  /** The line and column of `offsetOf(pointer)`. */
  place(pointer: string): Place;
}

/** What the parse records of each value, by its index in document order (the root's is 0). */
export interface ValueRecords {
  /** Where the value starts. */
  starts: number[];
  /** The index after the value's last descendant: the next sibling's, if there is one. */
  ends: number[];
  /** The value's member name, for a member of an object; "" otherwise. */
  names: string[];
}

export function sourceMap(text: string, records: ValueRecords): SourceMap {
  return new RecordedSourceMap(text, records);
}

/** 1-based line and column (in UTF-16 units, as editors count) of an offset. */
export function lineColumn(text: string, offset: number): Place {
  return placeOf(lineStarts(text), offset);
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

class RecordedSourceMap implements SourceMap {
  /** The children of each container looked into: by member name for an object, in order for an array. */
  #children: Map<number, Map<string, number> | number[]> | undefined;
  #lineStarts: number[] | undefined;

  constructor(
    readonly text: string,
    readonly records: ValueRecords,
  ) {}

  offsetOf(pointer: string): number {
    let at = 0;
    if (pointer.startsWith("/")) {
      for (const token of pointer.slice(1).split("/")) {
        const child = this.#child(at, unescapePointerToken(token));
        if (child === undefined) break;
        at = child;
      }
    }
    return this.records.starts[at]!;
  }

  place(pointer: string): Place {
    this.#lineStarts ??= lineStarts(this.text);
    return placeOf(this.#lineStarts, this.offsetOf(pointer));
  }

  #child(container: number, token: string): number | undefined {
    const children = this.#childrenOf(container);
    if (Array.isArray(children)) return ARRAY_INDEX.test(token) ? children[Number(token)] : undefined;
    return children?.get(token);
  }

  /** Gathered once per container: a large file may have a problem in each of its thousands of entries. */
  #childrenOf(container: number): Map<string, number> | number[] | undefined {
    this.#children ??= new Map();
    let children = this.#children.get(container);
    if (children !== undefined) return children;
    const { starts, ends, names } = this.records;
    const opening = this.text.charCodeAt(starts[container]!);
    if (opening === 0x7b /* { */) {
      const members = new Map<string, number>();
      for (let child = container + 1; child < ends[container]!; child = ends[child]!) members.set(names[child]!, child);
      children = members;
    } else if (opening === 0x5b /* [ */) {
      const elements: number[] = [];
      for (let child = container + 1; child < ends[container]!; child = ends[child]!) elements.push(child);
      children = elements;
    } else {
      return undefined;
    }
    this.#children.set(container, children);
    return children;
  }
}

/** Where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function placeOf(lineStarts: number[], offset: number): Place {
  // The last line starting at or before `offset`, by binary search.
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - lineStarts[low]! + 1 };
}
