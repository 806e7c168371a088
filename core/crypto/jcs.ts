/**
 * JSON Canonicalization Scheme (RFC 8785).
 *
 * Members sorted by UTF-16 code units (plain `sort()`: `localeCompare` would be wrong),
 * numbers and strings exactly as ECMAScript's JSON serialization writes them. Values JCS
 * cannot represent — non-finite numbers, lone surrogates — throw instead of producing
 * bytes that another implementation would canonicalize differently.
 *
 * Written as loops that append to one string: every manifest is canonicalized on each
 * build, and building arrays of parts to join cost three times as much.
 */

export function canonicalize(value: unknown): string {
  switch (typeof value) {
    case "string":
      return canonicalString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`JCS: ${value} is not a finite number`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ",") + canonicalize(value[i]);
        return `${out}]`;
      }
      let out = "";
      for (const key of Object.keys(value).sort()) {
        const member = (value as Record<string, unknown>)[key];
        if (member !== undefined) out += (out === "" ? "{" : ",") + canonicalMember(key, member);
      }
      return out === "" ? "{}" : `${out}}`;
    }
    default:
      throw new TypeError(`JCS: cannot canonicalize a value of type ${typeof value}`);
  }
}

function canonicalMember(key: string, value: unknown): string {
  return `${canonicalString(key)}:${canonicalize(value)}`;
}

function canonicalString(text: string): string {
  if (!text.isWellFormed()) throw new TypeError("JCS: string contains a lone surrogate");
  return JSON.stringify(text);
}

/** An object's members, each canonicalized as `"key":value`, in canonical order. */
export type CanonicalMembers = [key: string, member: string][];

/**
 * JCS of an object, in parts: a manifest is canonicalized once, then joined twice, with
 * and without its unsigned members (the body served, and the bytes signed).
 */
export function canonicalMembers(object: Record<string, unknown>): CanonicalMembers {
  const members: CanonicalMembers = [];
  for (const key of Object.keys(object).sort()) {
    const value = object[key];
    if (value !== undefined) members.push([key, canonicalMember(key, value)]);
  }
  return members;
}

export function joinMembers(members: CanonicalMembers, keep: (key: string) => boolean = () => true): string {
  let out = "";
  for (const [key, member] of members) if (keep(key)) out += (out === "" ? "{" : ",") + member;
  return out === "" ? "{}" : `${out}}`;
}
