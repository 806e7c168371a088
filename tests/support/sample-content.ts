/**
 * The sample content/ this repository ships, signed with a published test key. A publisher
 * who starts from this template removes it (the README's walkthrough begins with
 * `rm -r content/*`): tests make content of their own, and the one about the sample itself
 * (the CLI's help examples name its files and UMIDs) skips without it, saying why.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.ts";

const SAMPLE_KEY_FILE = join(ROOT, "tests/fixtures/sample-signing-key.TEST-ONLY.pem");

/** The `skip` option for a test of the sample content: false while content/_keys.json pins its test key. */
export const skipWithoutSampleContent = pinsSampleKey()
  ? false
  : "content/ is a publisher's own: its _keys.json does not pin the sample content's test key";

function pinsSampleKey(): boolean {
  const keys = join(ROOT, "content/_keys.json");
  const spki = createPublicKey(createPrivateKey(readFileSync(SAMPLE_KEY_FILE)))
    .export({ format: "der", type: "spki" })
    .toString("base64");
  return existsSync(keys) && Object.values(JSON.parse(readFileSync(keys, "utf8"))).includes(spki);
}
