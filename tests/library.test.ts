/**
 * The evaluator and the client as others import them: `npm run build:lib` writes lib/, and
 * the package's own name resolves `manifest-resolver/evaluate` and
 * `manifest-resolver/client` to it, types included; each bundle asks for nothing outside
 * itself (no `node:` module, no package, no schema compiler).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { buildLibrary, LIB_DIR } from "../tools/build-library.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { ROOT } from "./support/paths.ts";

describe("manifest-resolver/evaluate", () => {
  before(() => buildLibrary());

  it("resolves by the package's name and evaluates", async () => {
    const { evaluate } = (await import(
      "manifest-resolver/evaluate" as string
    )) as typeof import("../core/evaluate/index.ts");
    const receipt = await evaluate(JSON.stringify(signed(manifestFor("urn:lib:one"), newKey())), {
      now: "2026-06-01T00:00:00Z",
    });
    assert.deepEqual([receipt.outcome, receipt.signatureCheck], ["accepted", "valid"]);
  });

  it("resolves manifest-resolver/client by name, and resolves a UMID with it", async () => {
    const { resolve } = (await import(
      "manifest-resolver/client" as string
    )) as typeof import("../core/client/index.ts");
    const body = JSON.stringify(signed(manifestFor("urn:lib:client"), newKey()));
    const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/ld+json" }).end(body));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const result = await resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, "urn:lib:client", {
        context: { now: "2026-06-01T00:00:00Z" },
      });
      assert.deepEqual("receipt" in result && [result.receipt.outcome, result.receipt.manifestId], [
        "accepted",
        "urn:lib:client",
      ]);
    } finally {
      server.close();
    }
  });

  for (const name of ["evaluate.js", "client.js"]) {
    it(`${name} is one module that imports nothing, and compiles no schema at run time`, () => {
      const bundle = readFileSync(join(LIB_DIR, name), "utf8");
      assert.deepEqual(
        [...bundle.matchAll(/^\s*import\b.*$|\brequire\(["'][^"']+["']\)|\bimport\(["'][^"']+["']\)/gm)].map(
          (m) => m[0],
        ),
        [],
      );
      assert.doesNotMatch(bundle, /new Function\(|\bnode:/);
    });
  }

  it("type-checks in a consumer's project", () => {
    const consumer = mkdtempSync(join(tmpdir(), "um-consumer-"));
    try {
      writeFileSync(
        join(consumer, "use.ts"),
        `import { evaluate, type Receipt } from "manifest-resolver/evaluate";\nimport { ` +
          `memoryCache, resolve } from "manifest-resolver/client";\n` +
          `export const outcome: Promise<Receipt["outcome"]> = evaluate("{}", { now: ` +
          `"2026-06-01T00:00:00Z" }).then((r) => r.outcome);\n` +
          `export const reason: Promise<string | undefined> = ` +
          `resolve("https://resolver.example", "urn:x", { cache: memoryCache() }).then((r) ` +
          `=> ("reason" in r ? r.reason : r.receipt.outcome));\n`,
      );
      // Installed as a dependency would be: resolved through package.json `exports`.
      mkdirSync(join(consumer, "node_modules"));
      symlinkSync(ROOT, join(consumer, "node_modules/manifest-resolver"), "dir");
      writeFileSync(join(consumer, "package.json"), JSON.stringify({ type: "module" }));
      writeFileSync(
        join(consumer, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            module: "NodeNext",
            moduleResolution: "NodeNext",
            target: "ES2022",
            lib: ["ES2024", "DOM"],
            types: [],
          },
          include: ["use.ts"],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", consumer], {
        encoding: "utf8",
      });
      assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    } finally {
      rmSync(consumer, { recursive: true, force: true });
    }
  });
});
