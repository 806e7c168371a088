/**
 * Debian's Chromium, as the browser tests drive it (playwright-core cannot download a
 * browser on this network): where it is, why a test skips without it, and how it starts.
 */
import type { KeyObject } from "node:crypto";
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { didDocumentOf } from "./did.ts";

const CHROMIUM = "/usr/bin/chromium";

/** The reason to skip, for `describe(…, { skip })`; false where Chromium is installed. */
export const skipWithoutChromium = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`;

// The flags these machines need: no sandbox as root, and no background traffic to a closed network.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * Answers, in `page`, for the DID document of the test fixtures' did:web (fixture-content.ts, FIXTURE_KEY_REF): a
 * document that lists `key`, so that the lookup page confirms the key as it would on the Web; cacheable for a while,
 * as a host's documents often are, so that a lookup that reused it instead of asking would show.
 */
export async function serveFixtureDid(page: Pick<Page, "route">, key: KeyObject): Promise<void> {
  const body = JSON.stringify(didDocumentOf("did:web:fixture.example", key));
  await page.route("https://fixture.example/.well-known/did.json", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/did+json",
      headers: { "access-control-allow-origin": "*", "cache-control": "max-age=300" },
      body,
    }),
  );
}
