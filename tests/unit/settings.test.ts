/** The settings read from the environment (scripts/config.ts): a value no part of the product can use is refused. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, settingsFromEnv } from "../../scripts/config.ts";

describe("UM_RESOLVER_URL", () => {
  it("is taken when it is a base URL a client can resolve at", () => {
    for (const url of ["https://resolver.example", "https://resolver.example/base/", "http://localhost:8787"])
      assert.equal(settingsFromEnv({ UM_RESOLVER_URL: url }).resolverUrl, url);
  });

  it("is refused with credentials, a query, a fragment, or plain http: off loopback", () => {
    for (const url of [
      "https://u:p@resolver.example/",
      "https://resolver.example/?x=",
      "https://resolver.example/#f",
      "http://resolver.example/",
    ])
      assert.throws(() => settingsFromEnv({ UM_RESOLVER_URL: url }), ConfigError, url);
  });
});
