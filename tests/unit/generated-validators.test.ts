/**
 * The validators in core/validate/generated/ are what the schemas compile to today: a
 * schema edited without `npm run generate` fails here, not in a publisher's CI.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { GENERATED_DIR, generatedValidators } from "../../tools/generate-validators.ts";

test("the generated validators match their schemas (run `npm run generate` if not)", () => {
  const expected = generatedValidators();
  assert.deepEqual(readdirSync(GENERATED_DIR).sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected))
    assert.ok(readFileSync(join(GENERATED_DIR, name), "utf8") === text, `${name} is stale`);
});
