/** A resolver's base URL as the client takes one (core/http/base-url.ts), which sign, check and config share. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { baseUrlProblem } from "../../core/http/base-url.ts";

describe("baseUrlProblem", () => {
  it("takes an https: base, a path under it, and http: on loopback", () => {
    for (const url of ["https://resolver.example", "https://resolver.example/base/", "http://127.0.0.1:8787/"])
      assert.equal(baseUrlProblem(url), undefined, url);
  });

  it("refuses a query or fragment, even an empty one: the UMID path would land after it", () => {
    for (const url of ["https://resolver.example/?", "https://resolver.example/#", "https://resolver.example/?x=1"])
      assert.match(baseUrlProblem(url) ?? "", /query or fragment/, url);
  });

  it("refuses port 0, which no request can reach", () => {
    assert.match(baseUrlProblem("https://resolver.example:0/") ?? "", /port/);
  });
});
