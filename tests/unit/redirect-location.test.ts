/**
 * The one rule for a redirect's Location, on the text as written: each way a URL parser
 * would repair a string into some other target is refused, with its own reason, and the
 * routes schema reports the same reason at the location's pointer. A location on a local
 * or private address is refused as the client refuses it: when the resolver is not on one.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_LOCATION_BYTES, redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";
import { CONTEXT } from "../support/fixture-content.ts";

const longest = (prefix: string) => prefix + "a".repeat(MAX_LOCATION_BYTES - prefix.length);
/** A resolver on a public host, as UM_RESOLVER_URL names it. */
const REMOTE = "https://resolver.example";
/** Locations on this machine or a private network, in spellings a URL parser reads alike. */
const INWARD = [
  "https://10.0.0.1/x",
  "https://[::ffff:127.0.0.1]/x",
  "https://0.0.0.0/x",
  "https://169.254.169.254/latest/meta-data",
  "https://192.168.1.1:8443/m",
  "https://[fd00::1]/m",
  "https://0x7f.1/m",
  "http://localhost:8080/legacy/m?id=42",
  "http://127.0.0.1:8787/m",
];

describe("redirect locations", () => {
  it("accepts absolute https URLs with a host, or http to a loopback host, whatever their scheme's letter case", () => {
    for (const location of [
      "https://canonical.example/manifests/urn:uuid:1",
      "https://canonical.example",
      "https://canonical.example:8443/m",
      "https://[2001:db8::1]/m",
      "https://192.0.2.1/m",
      "https://xn--bcher-kva.example/%C3%BC",
      // Schemes are case-insensitive (RFC 3986 section 3.1): the same URL, sent as written.
      "HTTPS://Canonical.Example/M",
      longest("https://long.example/"),
    ]) {
      assert.equal(redirectLocationProblem(location, REMOTE), undefined, location.slice(0, 60));
    }
    // http: to loopback, for a resolver tried on this machine, or none named.
    for (const resolver of ["http://localhost:8787", ""])
      for (const location of [
        "http://127.0.0.1:8787/m?id=42#top",
        "http://localhost/m",
        "http://[::1]:8787/m",
        "hTTp://LocalHost/",
      ])
        assert.equal(redirectLocationProblem(location, resolver), undefined, `${location} from ${resolver}`);
  });

  it("refuses a local or private address when the resolver is not on one, as the client does", () => {
    const given = [...new Set(INWARD.map((location) => redirectLocationProblem(location, REMOTE)))];
    assert.equal(given.length, 1, given.join(" | "));
    assert.ok(given[0]?.includes(REMOTE), given[0]);
    // A resolver on this machine or a private network may send its clients there; unset, nothing says where it is.
    for (const resolver of ["http://localhost:8787", "https://10.1.2.3:8443", "https://[::1]/", ""])
      for (const location of INWARD)
        assert.equal(redirectLocationProblem(location, resolver), undefined, `${location} from ${resolver}`);
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
      const given = [...new Set(locations.map((location) => redirectLocationProblem(location, REMOTE)))];
      assert.equal(given.length, 1, `${way}: one reason for ${JSON.stringify(locations)}: ${given.join(" | ")}`);
      assert.notEqual(given[0], undefined, `${way}: refused`);
      return given[0];
    });
    reasons.push(redirectLocationProblem(INWARD[0]!, REMOTE));
    assert.equal(new Set(reasons).size, reasons.length, `a reason of its own for each way: ${reasons.join(" | ")}`);
    // Too long: the reason names the length, and the limit.
    for (const [location, bytes] of [
      [`https://long.example/${"a".repeat(100_000)}`, "100021"],
      [`${longest("https://long.example/")}a`, "8193"],
    ] as const) {
      const reason = redirectLocationProblem(location, REMOTE);
      assert.ok(reason?.includes(` ${bytes} `) && reason.includes(` ${MAX_LOCATION_BYTES} `), reason);
      assert.ok(!reasons.includes(reason), reason);
    }
  });

  it("is the routes schema's own keyword, reported at the location", () => {
    const problems = schemaValidators(CONTEXT, REMOTE).routes({
      redirects: [
        { umid: "urn:a", location: "https:///etc/passwd" },
        { umid: "urn:b", location: "HTTPS://b.example/" },
        { umid: "urn:c", location: "https://10.0.0.1/x" },
      ],
    });
    assert.deepEqual(problems, [
      {
        pointer: "/redirects/0/location",
        rule: "schema/redirect-location",
        message: redirectLocationProblem("https:///etc/passwd", REMOTE),
      },
      {
        pointer: "/redirects/2/location",
        rule: "schema/redirect-location",
        message: redirectLocationProblem("https://10.0.0.1/x", REMOTE),
      },
    ]);
    // Judged against the resolver the validators were made for: one on a private network may redirect there.
    assert.deepEqual(
      schemaValidators(CONTEXT, "https://10.0.0.5").routes({
        redirects: [{ umid: "urn:c", location: "https://10.0.0.1/x" }],
      }),
      [],
    );
  });

  it("is judged after the generated schema code, each in its place among the file's other problems", () => {
    const problems = schemaValidators(CONTEXT, REMOTE).routes({
      redirects: [
        { location: "ftp://x", extra: 1 },
        { umid: 5, location: "https://10.0.0.1/x" },
        { umid: "urn:ok", location: "https://ok.example/m" },
      ],
      revoked: [{}],
    });
    // The order ajv gives when it runs the keyword itself, as the validator compiled at run time did.
    assert.deepEqual(
      problems.map((p) => [p.pointer, p.rule]),
      [
        ["/redirects/0", "schema/required"],
        ["/redirects/0/extra", "schema/additionalProperties"],
        ["/redirects/0/location", "schema/redirect-location"],
        ["/redirects/1/umid", "schema/type"],
        ["/redirects/1/location", "schema/redirect-location"],
        ["/revoked/0", "schema/required"],
      ],
    );
    assert.equal(problems[2]?.message, redirectLocationProblem("ftp://x", REMOTE));
  });
});
