/**
 * The folder layout is the architecture: `core/` runs in every runtime (Node, Deno,
 * workerd, a browser), so it imports nothing but `core/` and no `node:` module; `edge/`
 * adds the handler on top of it, and only its Node adapter may use Node. `scripts/` (the
 * CLI and the build, Node-only) may import anything, and so nothing here imports it.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/paths.ts";

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true })
    .map((name) => join(ROOT, dir, String(name)))
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith(".d.ts"));
}

/** Every module specifier a file imports (static or dynamic), relative ones resolved to a path under ROOT. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => {
    const specifier = m[1]!;
    return specifier.startsWith(".") ? relative(ROOT, resolve(dirname(file), specifier)) : specifier;
  });
}

function assertImportsWithin(dir: string, allowed: (specifier: string) => boolean, except: string[] = []) {
  const files = sources(dir).filter((file) => !except.includes(relative(ROOT, file)));
  assert.ok(files.length > 0, `no sources under ${dir}/`);
  for (const file of files) {
    for (const specifier of importsOf(file))
      assert.ok(allowed(specifier), `${relative(ROOT, file)} imports ${specifier}`);
  }
}

test("core/ imports only core/, and the format checks of ajv-formats (plain functions, no imports)", () => {
  assertImportsWithin("core", (s) => s.startsWith("core/") || s === "ajv-formats/dist/formats.js");
});

test("edge/ imports only edge/ and core/, and only its Node adapter imports Node", () => {
  assertImportsWithin("edge", (s) => s.startsWith("edge/") || s.startsWith("core/"), ["edge/adapters/node.ts"]);
});
