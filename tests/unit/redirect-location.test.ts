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
  it("accepts absolute https URLs with a host, or http to a loopback host, whatever their scheme's letter case", () => {
    for (const location of [
      "https://canonical.example/manifests/urn:uuid:1",
      "http://127.0.0.1:8787/m?id=42#top",
      "http://localhost/m",
      "http://[::1]:8787/m",
      "https://canonical.example",
      "https://canonical.example:8443/m",
      "https://[2001:db8::1]/m",
      "https://192.0.2.1/m",
      "https://xn--bcher-kva.example/%C3%BC",
      // Schemes are case-insensitive (RFC 3986 section 3.1): the same URL, sent as written.
      "HTTPS://Canonical.Example/M",
      "hTTp://LocalHost/",
      longest("https://long.example/"),
    ]) {
      assert.equal(redirectLocationProblem(location), undefined, location.slice(0, 60));
    }
  });

  it("refuses each text that is not what a consumer would be sent to, with a reason of its own for each way", () => {
    // By way (named for this test: the reasons' words are the rule's), the texts refused that way.
    const refused: Record<string, string[]> = {
      // The four: a missing host, credentials, and the length (below).
      "no host": ["http://", "https:///etc/passwd", "https://:443/", "https://?q"],
      credentials: ["https://user:pass@host.example/m", "https://user@host.example/", "https://@host.example/"],
      // What the WHATWG parser would repair into another URL.
      backslash: ["https:\\\\evil.example/", "https://good.example\\@evil.example/"],
      "not printable ASCII": [
        "https://host.example/a\tb",
        "https://host.example/a\nb",
        "https://host.\r\nexample/",
        " https://host.example/",
        "https://host.example/a b",
        "https://host.example/\x7f",
        "https://hôst.example/",
        "https://exa mple/",
      ],
      "not a valid URL": ["https://host.example:99999/"],
      // Issue 37: what no client follows (core/secure-url.ts), so every client would refuse the redirect.
      "http to another host": [
        "http://elsewhere.example/x",
        "hTTp://legacy.example/m?id=42#top",
        "http://192.0.2.1/m",
        "http://[2001:db8::1]/m",
      ],
      // Not http(s), or not absolute.
      "not absolute http(s)": [
        "https:/one-slash.example/",
        "https:no-slash.example/",
        "ftp://files.example/m",
        "javascript:alert(1)",
        "//host.example/m",
        "/m",
        "",
      ],
    };
    const reasons = Object.entries(refused).map(([way, locations]) => {
      const given = [...new Set(locations.map(redirectLocationProblem))];
      assert.equal(given.length, 1, `${way}: one reason for ${JSON.stringify(locations)}: ${given.join(" | ")}`);
      assert.notEqual(given[0], undefined, `${way}: refused`);
      return given[0];
    });
    assert.equal(new Set(reasons).size, reasons.length, `a reason of its own for each way: ${reasons.join(" | ")}`);
    // Too long: the reason names the length, and the limit.
    for (const [location, bytes] of [
      [`https://long.example/${"a".repeat(100_000)}`, "100021"],
      [`${longest("https://long.example/")}a`, "8193"],
    ] as const) {
      const reason = redirectLocationProblem(location);
      assert.ok(reason?.includes(` ${bytes} `) && reason.includes(` ${MAX_LOCATION_BYTES} `), reason);
      assert.ok(!reasons.includes(reason), reason);
    }
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
        message: redirectLocationProblem("https:///etc/passwd"),
      },
    ]);
  });
});
