/**
 * The one rule for a redirect's Location, on the text as written: each way a URL parser
 * would repair a string into some other target is refused, with its own reason, and the
 * routes schema reports the same reason at the location's pointer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_LOCATION_BYTES, redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";
import { CONTEXT } from "../support/fixture-content.ts";

const longest = (prefix: string) => prefix + "a".repeat(MAX_LOCATION_BYTES - prefix.length);

describe("redirect locations", () => {
  it("accepts absolute http(s) URLs with a host, whatever their scheme's letter case", () => {
    for (const location of [
      "https://canonical.example/manifests/urn:uuid:1",
      "http://legacy.example/m?id=42#top",
      "https://canonical.example",
      "https://canonical.example:8443/m",
      "https://[2001:db8::1]/m",
      "https://192.0.2.1/m",
      "https://xn--bcher-kva.example/%C3%BC",
      // Schemes are case-insensitive (RFC 3986 section 3.1): the same URL, sent as written.
      "HTTPS://Canonical.Example/M",
      "hTTp://legacy.example/",
      longest("https://long.example/"),
    ]) {
      assert.equal(redirectLocationProblem(location), undefined, location.slice(0, 60));
    }
  });

  it("refuses each text that is not what a consumer would be sent to, saying why", () => {
    const cases: [string, RegExp][] = [
      // The four.
      ["http://", /^must name a host right after the \/\/$/],
      ["https:///etc/passwd", /^must name a host right after the \/\/$/],
      [
        `https://long.example/${"a".repeat(100_000)}`,
        /^is 100021 bytes long; a redirect location is at most 8192 bytes$/,
      ],
      ["https://user:pass@host.example/m", /^must not carry credentials/],
      // What the WHATWG parser would repair into another URL.
      ["https:\\\\evil.example/", /^must not contain a backslash/],
      ["https://good.example\\@evil.example/", /^must not contain a backslash/],
      ["https:/one-slash.example/", /^must be an absolute http: or https: URL/],
      ["https:no-slash.example/", /^must be an absolute http: or https: URL/],
      ["https://host.example/a\tb", /^must be printable ASCII/],
      ["https://host.example/a\nb", /^must be printable ASCII/],
      ["https://host.\r\nexample/", /^must be printable ASCII/],
      [" https://host.example/", /^must be printable ASCII/],
      ["https://host.example/a b", /^must be printable ASCII/],
      ["https://host.example/\x7f", /^must be printable ASCII/],
      ["https://hôst.example/", /^must be printable ASCII/],
      ["https://user@host.example/", /^must not carry credentials/],
      ["https://@host.example/", /^must not carry credentials/],
      ["https://:443/", /^must name a host right after the \/\/$/],
      ["https://?q", /^must name a host right after the \/\/$/],
      ["https://host.example:99999/", /^is not a valid URL$/],
      ["https://exa mple/", /^must be printable ASCII/],
      // Not http(s), or not absolute.
      ["ftp://files.example/m", /^must be an absolute http: or https: URL/],
      ["javascript:alert(1)", /^must be an absolute http: or https: URL/],
      ["//host.example/m", /^must be an absolute http: or https: URL/],
      ["/m", /^must be an absolute http: or https: URL/],
      ["", /^must be an absolute http: or https: URL/],
      [`${longest("https://long.example/")}a`, /^is 8193 bytes long/],
    ];
    for (const [location, reason] of cases)
      assert.match(redirectLocationProblem(location) ?? "accepted", reason, JSON.stringify(location.slice(0, 60)));
  });

  it("is the routes schema's own keyword, reported at the location", () => {
    const problems = schemaValidators(CONTEXT).routes({
      redirects: [
        { umid: "urn:a", location: "https:///etc/passwd" },
        { umid: "urn:b", location: "HTTPS://b.example/" },
      ],
    });
    assert.deepEqual(problems, [
      {
        pointer: "/redirects/0/location",
        rule: "schema/redirect-location",
        message: "must name a host right after the //",
      },
    ]);
  });
});
