/**
 * The lookup page, measured in Chromium (Debian's, driven by playwright-core): WCAG 2.2 AA
 * contrast (SC 1.4.3, 4.5:1, relative luminance as WCAG defines it) of every text colour
 * on its background, in the light and the dark theme; no sideways scrolling at 390×844
 * (SC 1.4.10, reflow); every control and each scrollable region reachable by Tab (SC 2.1.1);
 * and no console error while the page is used. The page asks a resolver made here, on
 * another origin, whose answers render each tone of verdict: usable, usable with warnings
 * (a suspended status), nothing to use (404).
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, skipWithoutChromium, serveFixtureDid } from "./support/chromium.ts";
import { umidPath } from "../core/umid-path.ts";
import { lookupPageFiles } from "../scripts/lookup-page-files/files.ts";
import { serveLookupPage } from "../scripts/lookup-page-files/serve.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";

const SCHEMES = ["light", "dark"] as const;

/**
 * The browser's names that the functions given to page.evaluate use, as far as they use
 * them: those functions run in Chromium, and this file is type-checked without the DOM library.
 */
interface PageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  value?: string;
  parentElement: PageElement | null;
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  getAttribute(name: string): string | null;
  getClientRects(): { length: number };
  scrollHeight: number;
  clientHeight: number;
  scrollWidth: number;
  clientWidth: number;
}
declare const document: {
  documentElement: PageElement;
  activeElement: PageElement | null;
  scrollingElement: PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare function getComputedStyle(
  element: PageElement,
  pseudoElement?: string,
): { color: string; backgroundColor: string; getPropertyValue(name: string): string };
/** DOM's Node.TEXT_NODE. */
const TEXT_NODE = 3;

/** WCAG 2.2's contrast ratio of two opaque sRGB colours, each [r, g, b] in 0–255. */
function contrastRatio(a: number[], b: number[]): number {
  const luminance = (rgb: number[]) => {
    const [r, g, bl] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("the lookup page, measured", { skip: skipWithoutChromium }, () => {
  const key = newKey();
  let resolver: Server;
  let origin: string;
  let ui: string;
  let pageServer: Server;
  let browser: Browser;

  before(async () => {
    resolver = createServer((req, res) => {
      const cors = { "Access-Control-Allow-Origin": "*" };
      const path = req.url ?? "/";
      if (path === umidPath("urn:measured:usable"))
        return res
          .writeHead(200, { ...cors, "Content-Type": "application/ld+json" })
          .end(JSON.stringify(signed(manifestFor("urn:measured:usable"), key)));
      if (path === umidPath("urn:measured:suspended")) {
        // statusRef lies outside the signing input (EXT-OPT O2.1): added after signing.
        const manifest = signed(manifestFor("urn:measured:suspended"), key);
        const statusRef = `${origin}/.well-known/manifest-resolver/status${umidPath("urn:measured:suspended")}`;
        return res
          .writeHead(200, { ...cors, "Content-Type": "application/ld+json" })
          .end(JSON.stringify({ ...manifest, signature: { ...(manifest.signature as object), statusRef } }));
      }
      if (path.startsWith("/.well-known/manifest-resolver/status/")) {
        const status = {
          manifestId: "urn:measured:suspended",
          status: "suspended",
          updatedAt: "2026-03-01T00:00:00Z",
          reason: "under review",
          cursor: "0000001772323200000",
          nextCheck: "PT10M",
        };
        return res.writeHead(200, { ...cors, "Content-Type": "application/json" }).end(JSON.stringify(status));
      }
      res
        .writeHead(404, { ...cors, "Content-Type": "application/json" })
        .end(JSON.stringify({ error: "not_found", umid: decodeURIComponent(path.slice(1)) }));
    });
    await new Promise<void>((listening) => resolver.listen(0, "127.0.0.1", listening));
    // localhost, not 127.0.0.1: another origin than the page's.
    origin = `http://localhost:${(resolver.address() as { port: number }).port}`;
    pageServer = (await serveLookupPage(await lookupPageFiles(origin), "127.0.0.1", 0)).server;
    ui = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    resolver?.close();
    pageServer?.close();
  });

  /** A new page at 390×844 (a phone) in `scheme`, its console errors and uncaught exceptions collected. */
  async function openPage(scheme: "light" | "dark" = "light"): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: scheme });
    // tsx compiles this file keeping function names, through a helper `__name` that the functions given to
    // page.evaluate call: give the page one.
    await page.addInitScript({ content: "globalThis.__name = (target) => target;" });
    await serveFixtureDid(page, key);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    return { page, errors };
  }

  async function lookUp(page: Page, umid: string): Promise<string> {
    await page.goto(`${ui}/?${new URLSearchParams({ umid })}`);
    await page.locator("#result .verdict").waitFor();
    return page.locator("#result .headline").innerText();
  }

  /** Every piece of text on the page now: its colour and the colour of the background it is drawn on. */
  function textColours(page: Page) {
    return page.evaluate((textNode) => {
      const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
      const assert = (condition: boolean, message: string): void => {
        if (!condition) throw new Error(message);
      };
      const background = (element: PageElement | null): number[] => {
        for (let e = element; e !== null; e = e.parentElement) {
          const colour = rgb(getComputedStyle(e).backgroundColor);
          if (colour.length === 3 || colour[3] === 1) return colour.slice(0, 3);
          assert(colour[3] === 0, `${e.tagName} has a translucent background: measure it blended`);
        }
        throw new Error("no opaque background behind the text");
      };
      const found: { text: string; colour: number[]; background: number[] }[] = [];
      for (const element of document.querySelectorAll("body *")) {
        const own = [...element.childNodes]
          .filter((n) => n.nodeType === textNode)
          .map((n) => n.textContent!.trim())
          .join(" ")
          .trim();
        const input = element.tagName === "INPUT";
        const text = input ? element.value! : own;
        if (text !== "" && element.getClientRects().length > 0)
          found.push({
            text: text.slice(0, 40),
            colour: rgb(getComputedStyle(element).color),
            background: background(element),
          });
        if (input)
          found.push({
            text: `placeholder of #${element.id}`,
            colour: rgb(getComputedStyle(element, "::placeholder").color),
            background: background(element),
          });
      }
      const palette = Object.fromEntries(
        ["--fg", "--muted", "--ok", "--warn", "--bad", "--link"].map((name) => [
          name,
          getComputedStyle(document.documentElement).getPropertyValue(name).trim(),
        ]),
      );
      return { found, palette };
    }, TEXT_NODE);
  }

  for (const scheme of SCHEMES) {
    it(`every text colour has a contrast of at least 4.5:1 on its background, ${scheme} theme`, async () => {
      const { page } = await openPage(scheme);
      const seen = new Set<string>();
      let palette: Record<string, string> = {};
      for (const umid of ["urn:measured:usable", "urn:measured:suspended", "urn:measured:nobody"]) {
        await lookUp(page, umid);
        const measured = await textColours(page);
        palette = measured.palette;
        for (const { text, colour, background } of measured.found) {
          const ratio = contrastRatio(colour, background);
          assert.ok(
            ratio >= 4.5,
            `${scheme}: ${JSON.stringify(text)} in rgb(${colour}) on rgb(${background}): ${ratio.toFixed(2)}:1`,
          );
          seen.add(`#${colour.map((c) => c.toString(16).padStart(2, "0")).join("")}`);
        }
      }
      // Each text colour of the palette was on the page, so each was measured.
      for (const [name, value] of Object.entries(palette))
        assert.ok(seen.has(value), `${scheme}: ${name} (${value}) was not measured; measured ${[...seen].join(", ")}`);
      await page.close();
    });
  }

  it("renders each tone of verdict: usable, usable with warnings, nothing to use", async () => {
    const { page } = await openPage();
    assert.equal(await lookUp(page, "urn:measured:usable"), "Usable");
    // The live region screen readers announce holds the verdict, not the whole result.
    assert.equal(
      await page.locator("#announcement").textContent(),
      "Usable: the signature verifies, the manifest is within its validity period, and nothing in it was withheld",
    );
    assert.equal(await lookUp(page, "urn:measured:suspended"), "Usable with warnings");
    // Its reason names since when, and why.
    const reasons = await page.locator("#result .verdict li").allInnerTexts();
    assert.ok(
      reasons.some((reason) => reason.includes("2026-03-01T00:00:00Z") && reason.includes("under review")),
      reasons.join("\n"),
    );
    assert.equal(await lookUp(page, "urn:measured:nobody"), "Nothing to use");
    await page.close();
  });

  it("at 390×844 the page does not scroll sideways, whatever the result", async () => {
    const { page } = await openPage();
    for (const umid of ["urn:measured:usable", "urn:measured:suspended", "urn:measured:nobody"]) {
      await lookUp(page, umid);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        clientWidth: document.scrollingElement!.clientWidth,
      }));
      assert.ok(scrollWidth <= clientWidth, `${umid}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
    }
    await page.close();
  });

  it("Tab reaches every control, the link and each scrollable region, the manifest's among them", async () => {
    const { page } = await openPage();
    await lookUp(page, "urn:measured:usable");
    const describe = () =>
      page.evaluate(() => {
        const e = document.activeElement!;
        return e.id !== ""
          ? `#${e.id}`
          : `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.textContent!.trim().slice(0, 30)}`;
      });
    const all = await page.evaluate(() =>
      [...document.querySelectorAll("input, button, a[href], [tabindex]")].map((e) =>
        e.id !== ""
          ? `#${e.id}`
          : `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.textContent!.trim().slice(0, 30)}`,
      ),
    );
    const scrollable = await page.evaluate(
      () =>
        [...document.querySelectorAll("pre")].filter(
          (e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth,
        ).length,
    );
    assert.ok(scrollable >= 1, "a manifest region that scrolls");
    const reached = new Set<string>();
    for (let i = 0; i < all.length + 2; i++) {
      await page.keyboard.press("Tab");
      reached.add(await describe());
    }
    for (const focusable of all)
      assert.ok(reached.has(focusable), `Tab did not reach ${focusable}; reached ${[...reached].join(", ")}`);
    assert.ok(reached.has("pre:Manifest"), "the manifest region");
    // Chromium focuses a scrollable region of itself (keyboard-focusable scrollers); other browsers, Safari among
    // them, need the tabindex.
    assert.equal(await page.getAttribute('pre[aria-label="Manifest"]', "tabindex"), "0");
    await page.close();
  });

  it("the console has no errors while the page is used", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${ui}/`);
    await page.fill("#umid", "urn:measured:usable");
    await page.keyboard.press("Enter");
    await page.locator("#result .verdict").waitFor();
    await page.getByRole("button", { name: "Copy the request URL" }).click();
    await page
      .locator("#result")
      .getByText(/^(Copied|Not copied)/)
      .waitFor();
    await page.fill("#umid", "urn:measured:suspended");
    await page.click("form button");
    await page.locator("#result .headline", { hasText: "Usable with warnings" }).waitFor();
    assert.deepEqual(errors, []);
    // Chromium itself logs every 4xx answer to a fetch as an error, which no page can prevent; the page adds none of
    // its own.
    await lookUp(page, "urn:measured:nobody");
    assert.deepEqual(errors, ["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
    await page.close();
  });
});
