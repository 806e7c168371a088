/**
 * Debian's Chromium, as the browser tests drive it (playwright-core cannot download a
 * browser on this network): where it is, why a test skips without it, and how it starts.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

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
