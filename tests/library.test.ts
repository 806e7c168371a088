/**
 * The evaluator and the client as others import them: `npm run build:lib` writes lib/ (`npm
 * test` runs it first), and the package's own name resolves `manifest-resolver/evaluate` and
 * `manifest-resolver/client` to it; each bundle asks for nothing outside itself and its chunks
 * (no `node:` module, no package, no schema compiler). tests/package.test.ts type-checks every entry in
 * a project that installed the packed tarball.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { LIB_DIR } from "../tools/build-library.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { umidPath } from "../core/umid-path.ts";

describe("manifest-resolver/evaluate", () => {
  it("resolves by the package's name and evaluates", async () => {
    const { evaluate } = (await import(
      "manifest-resolver/evaluate" as string
    )) as typeof import("../core/evaluate/index.ts");
    const receipt = await evaluate(
      JSON.stringify(signed(manifestFor("urn:lib:one"), newKey())),
      { now: "2026-06-01T00:00:00Z" },
      // The fixtures' did:web host does not exist.
      { offline: true },
    );
    assert.deepEqual([receipt.outcome, receipt.signatureCheck], ["accepted", "valid"]);
  });

  it("resolves manifest-resolver/client by name, and resolves a UMID with it", async () => {
    const { resolve } = (await import(
      "manifest-resolver/client" as string
    )) as typeof import("../core/client/index.ts");
    const body = JSON.stringify(signed(manifestFor("urn:lib:client"), newKey()));
    // The manifest at its path; nothing else, its status included (not listed: no warning).
    const server = createServer((req, res) =>
      req.url === umidPath("urn:lib:client")
        ? res.writeHead(200, { "content-type": "application/ld+json" }).end(body)
        : res.writeHead(404).end(),
    );
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      // Offline: the fixture's did:web host does not exist (tests/did-web.test.ts resolves keys).
      const result = await resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "urn:lib:client", {
        context: { now: "2026-06-01T00:00:00Z" },
        offline: true,
      });
      assert.deepEqual("receipt" in result && [result.receipt.outcome, result.receipt.manifestId], [
        "accepted",
        "urn:lib:client",
      ]);
    } finally {
      server.close();
    }
  });

  it("lib/'s modules import only one another, and compile no schema at run time", () => {
    // Every module of lib/: the entries, their chunks, and the modules bundled apart.
    const files = readdirSync(LIB_DIR).filter((name) => name.endsWith(".js"));
    for (const name of files) {
      const bundle = readFileSync(join(LIB_DIR, name), "utf8");
      const specifiers = [
        ...bundle.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\(["']([^"']+)["']\)|\brequire\(["']([^"']+)["']\)/g),
      ].map((m) => m[1] ?? m[2] ?? m[3]!);
      for (const specifier of specifiers) {
        assert.match(specifier, /^\.\.?\//, `${name} imports ${specifier}`);
        assert.ok(
          existsSync(join(LIB_DIR, dirname(name), specifier)),
          `${name} imports ${specifier}, which is not in lib/`,
        );
      }
      assert.doesNotMatch(bundle, /new Function\(|\bnode:/, name);
    }
  });
});
