/**
 * JSON Canonicalization Scheme (RFC 8785).
 *
 * Members sorted by UTF-16 code units (plain `sort()`: `localeCompare` would be wrong),
 * numbers and strings exactly as ECMAScript's JSON serialization writes them. Values JCS
 * cannot represent — non-finite numbers, lone surrogates — throw instead of producing
 * bytes that another implementation would canonicalize differently.
 */

export function canonicalize(value: unknown): string {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw new TypeError("JCS: string contains a lone surrogate");
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`JCS: ${value} is not a finite number`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${value.map(canonicalize).join(",")}]`;
      return joinMembers(canonicalMembers(value as Record<string, unknown>));
    }
    default:
      throw new TypeError(`JCS: cannot canonicalize a value of type ${typeof value}`);
  }
}

/** An object's members, each canonicalized as `"key":value`, in canonical order. */
export type CanonicalMembers = [key: string, member: string][];

/**
 * JCS of an object, in parts: a manifest is canonicalized once, then joined twice, with
 * and without its unsigned members (the body served, and the bytes signed).
 */
export function canonicalMembers(object: Record<string, unknown>): CanonicalMembers {
  return Object.keys(object)
    .filter((key) => object[key] !== undefined)
    .sort()
    .map((key) => [key, `${canonicalize(key)}:${canonicalize(object[key])}`]);
}

export function joinMembers(members: CanonicalMembers, keep: (key: string) => boolean = () => true): string {
  return `{${members.flatMap(([key, member]) => (keep(key) ? [member] : [])).join(",")}}`;
}
