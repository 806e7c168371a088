import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ifNoneMatchMatches } from "../../edge/conditional.ts";

const etag = 'W/"sha256-abc_DEF-123"';

describe("If-None-Match (RFC 9110 13.1.2, weak comparison)", () => {
  const matches: [string, string][] = [
    ["the same weak tag", 'W/"sha256-abc_DEF-123"'],
    ["the strong form of it", '"sha256-abc_DEF-123"'],
    ["*", "*"],
    ["* with spaces", "  *  "],
    ["a list holding it", '"a", W/"b", W/"sha256-abc_DEF-123", "c"'],
    ["a list without spaces", '"a",W/"sha256-abc_DEF-123"'],
    ["a list with a comma inside a tag", 'W/"x,y", "sha256-abc_DEF-123"'],
    ["Netlify's -df suffix inside the quotes", 'W/"sha256-abc_DEF-123-df"'],
    ["Netlify's -df suffix after the quotes", 'W/"sha256-abc_DEF-123"-df'],
  ];
  for (const [what, header] of matches)
    it(`matches ${what}`, () => assert.equal(ifNoneMatchMatches(header, etag), true));

  const misses: [string, string | null][] = [
    ["no header", null],
    ["an empty header", ""],
    ["another tag", 'W/"sha256-abc_DEF-124"'],
    ["a prefix of it", 'W/"sha256-abc_DEF-12"'],
    ["the tag unquoted", "sha256-abc_DEF-123"],
    ["a different case", 'W/"SHA256-abc_DEF-123"'],
    ["another suffix", 'W/"sha256-abc_DEF-123-gz"'],
    ["* inside a list", '"a", *'],
  ];
  for (const [what, header] of misses)
    it(`does not match ${what}`, () => assert.equal(ifNoneMatchMatches(header, etag), false));
});
