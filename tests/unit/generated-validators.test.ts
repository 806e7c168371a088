/**
 * The validators in core/validate/generated/ are what the schemas compile to today: a
 * schema edited without `npm run generate` fails here, not in a publisher's CI.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { GENERATED_DIR, generatedValidators } from "../../tools/generate-validators.ts";

test("the generated validators match their schemas (run `npm run generate` if not)", () => {
  const expected = generatedValidators();
  assert.deepEqual(readdirSync(GENERATED_DIR).sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected))
    assert.ok(readFileSync(join(GENERATED_DIR, name), "utf8") === text, `${name} is stale`);
});

/** What each format the schemas use is asked about: valid, invalid and borderline texts. */
const FORMAT_TEXTS: Record<string, string[]> = {
  "date-time": [
    ...["2026-01-01T00:00:00Z", "2024-02-29T23:59:60+01:00", "2026-02-29T00:00:00Z", "2026-01-01t00:00:00.5-00:30"],
    ...["2026-01-01 00:00:00z", "2026-01-01T00:00:00", "2026-01-01", "2026-01-01T24:00:00Z", "T00:00:00Z", ""],
  ],
  uri: [
    ...["https://x.example/a?b#c", "urn:uuid:6f1c2d3e-8a4b", "did:web:x.example", "x:y", "//x.example", "a b:c"],
    ...["http://[::1]:8080/", "mailto:a@b.example", "not a uri", "https://x.example/%zz", ""],
  ],
};

test("the formats generated are ajv-formats' own", async () => {
  const generated = (await import(pathToFileURL(join(GENERATED_DIR, "formats.js")).href)).fullFormats;
  const verdict = (format: unknown, text: string) =>
    typeof format === "function" ? format(text) : (format as { validate: (text: string) => boolean }).validate(text);
  assert.deepEqual(Object.keys(generated).sort(), Object.keys(FORMAT_TEXTS).sort());
  for (const [name, texts] of Object.entries(FORMAT_TEXTS))
    for (const text of texts)
      assert.equal(
        verdict(generated[name], text),
        verdict(fullFormats[name as keyof typeof fullFormats], text),
        `${name}: ${JSON.stringify(text)}`,
      );
});
