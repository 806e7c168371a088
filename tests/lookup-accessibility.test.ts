/**
 * The lookup page, measured in Chromium (Debian's, driven by playwright-core): WCAG 2.2 AA
 * contrast (SC 1.4.3, 4.5:1, relative luminance as WCAG defines it) of every text colour
 * on its background, in the light and the dark theme; no sideways scrolling at 390×844
 * (SC 1.4.10, reflow); every control and each scrollable region reachable by Tab (SC 2.1.1);
 * and no console error while the page is used. The page asks a resolver made here, on
 * another origin, whose answers render each tone of verdict: usable, usable with warnings
 * (a suspended status), not found (404), and a redirect the page cannot follow. Every
 * collapsed block is opened before it is measured, as a reader opens it.
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
  setAttribute(name: string, value: string): void;
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
): { color: string; backgroundColor: string; content: string; getPropertyValue(name: string): string };
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
    /** The status the resolver's own status endpoint lists for each UMID it serves. */
    const statuses: Record<string, Record<string, string>> = {
      "urn:measured:usable": { status: "active", updatedAt: "2026-01-01T00:00:00Z" },
      "urn:measured:suspended": { status: "suspended", updatedAt: "2026-03-01T00:00:00Z", reason: "under review" },
    };
    resolver = createServer((req, res) => {
      const cors = { "Access-Control-Allow-Origin": "*" };
      const path = req.url ?? "/";
      // Sent to a page that does not let other origins read it: the lookup page cannot follow.
      if (path === umidPath("urn:measured:moved")) return res.writeHead(307, { ...cors, Location: "/no-cors" }).end();
      if (path === "/no-cors") return res.writeHead(200, { "Content-Type": "application/ld+json" }).end("{}");
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
      const statusOf = path.match(/^\/\.well-known\/manifest-resolver\/status\/(.+)$/);
      const listed = statuses[decodeURIComponent(statusOf?.[1] ?? "")];
      if (listed !== undefined) {
        const manifestId = decodeURIComponent(statusOf![1]!);
        const status = { manifestId, ...listed, cursor: `${Date.parse(listed.updatedAt!)}`.padStart(19, "0") };
        return res
          .writeHead(200, { ...cors, "Content-Type": "application/json" })
          .end(JSON.stringify({ ...status, nextCheck: "PT10M" }));
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

  const UMIDS = ["urn:measured:usable", "urn:measured:suspended", "urn:measured:nobody", "urn:measured:moved"];

  /** Looks `umid` up as a shared link does: its verdict's outcome, tone and headline. */
  async function lookUp(page: Page, umid: string): Promise<{ outcome: string; tone: string; headline: string }> {
    await page.goto(`${ui}/?${new URLSearchParams({ umid })}`);
    const verdict = page.locator("#result #verdict");
    await verdict.waitFor();
    return {
      outcome: (await verdict.getAttribute("data-outcome"))!,
      tone: (await verdict.getAttribute("data-tone"))!,
      headline: await verdict.innerText(),
    };
  }

  /** Opens every collapsed block of the result, as a reader who wants all of it does. */
  const openAll = (page: Page) =>
    page.evaluate(() => {
      for (const details of document.querySelectorAll("details")) details.setAttribute("open", "");
    });

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
        // Text a style sheet draws, such as the checklist's marks (✓, !, ✗, –).
        const before = getComputedStyle(element, "::before");
        if (/^".+"$/.test(before.content) && element.getClientRects().length > 0)
          found.push({
            text: `${before.content} before ${own.slice(0, 30)}`,
            colour: rgb(before.color),
            background: background(element),
          });
      }
      const palette = Object.fromEntries(
        ["--fg", "--muted", "--ok", "--warn", "--bad", "--link", "--redirect"].map((name) => [
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
      for (const umid of UMIDS) {
        await lookUp(page, umid);
        await openAll(page);
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

  it("renders each tone of verdict: usable, usable with warnings, not found, moved elsewhere", async () => {
    const { page } = await openPage();
    const verdicts = [];
    for (const umid of UMIDS) {
      verdicts.push(await lookUp(page, umid));
      // The live region screen readers announce holds the verdict and its first reason, not the whole result.
      const first = await page.locator("#reasons > li").first().textContent();
      assert.equal(await page.locator("#announcement").textContent(), `${verdicts.at(-1)!.headline}: ${first}`);
      if (umid === "urn:measured:suspended") {
        // Its reason names since when, and why.
        const reasons = await page.locator("#reasons > li").allTextContents();
        assert.ok(
          reasons.some((reason) => reason.includes("2026-03-01") && reason.includes("under review")),
          reasons.join("\n"),
        );
      }
    }
    assert.deepEqual(verdicts, [
      { outcome: "accepted", tone: "ok", headline: "Usable" },
      { outcome: "accepted-with-warnings", tone: "warn", headline: "Usable with warnings" },
      { outcome: "not-found", tone: "bad", headline: "Not found" },
      { outcome: "unresolved", tone: "redirect", headline: "Moved elsewhere" },
    ]);
    await page.close();
  });

  it("at 390×844 the page does not scroll sideways, whatever the result", async () => {
    const { page } = await openPage();
    for (const umid of UMIDS) {
      await lookUp(page, umid);
      await openAll(page);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        clientWidth: document.scrollingElement!.clientWidth,
      }));
      assert.ok(scrollWidth <= clientWidth, `${umid}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
    }
    await page.close();
  });

  it("Tab reaches every control, link and toggle, and each scrollable region of a toggle Enter opens", async () => {
    const { page } = await openPage();
    await lookUp(page, "urn:measured:usable");
    const FOCUSABLE = "input, button, a[href], summary, [tabindex]";
    /** The focused element, named by its id, else its tag and its label or text; and whether it is a closed toggle. */
    const focused = () =>
      page.evaluate(() => {
        const e = document.activeElement!;
        return {
          name:
            e.id !== ""
              ? `#${e.id}`
              : `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.textContent!.trim().slice(0, 30)}`,
          closedToggle: e.tagName === "SUMMARY" && e.parentElement!.getAttribute("open") === null,
        };
      });
    const candidates = await page.locator(FOCUSABLE).count();
    const reached = new Set<string>();
    for (let i = 0; i < candidates + 2; i++) {
      await page.keyboard.press("Tab");
      const { name, closedToggle } = await focused();
      reached.add(name);
      // A keyboard user opens a collapsed block with Enter, then tabs into it.
      if (closedToggle) await page.keyboard.press("Enter");
    }
    // Every focusable element shown, now that each block is open (Cancel shows only while asking).
    const all = await page.evaluate(
      (selector) =>
        [...document.querySelectorAll(selector)]
          .filter((e) => e.getClientRects().length > 0)
          .map((e) =>
            e.id !== ""
              ? `#${e.id}`
              : `${e.tagName.toLowerCase()}:${e.getAttribute("aria-label") ?? e.textContent!.trim().slice(0, 30)}`,
          ),
      FOCUSABLE,
    );
    for (const focusable of all)
      assert.ok(reached.has(focusable), `Tab did not reach ${focusable}; reached ${[...reached].join(", ")}`);
    // The resolver's answer and the receipt, each a region of its own: [as named above, its selector].
    const regions = [
      ["pre:The resolver's answer", `pre[aria-label="The resolver's answer"]`],
      ["#receipt", 'pre#receipt[aria-label="Receipt"]'],
    ] as const;
    for (const [name, selector] of regions) {
      assert.ok(reached.has(name), `the region ${name}; reached ${[...reached].join(", ")}`);
      // Chromium focuses a scrollable region of itself (keyboard-focusable scrollers); other browsers, Safari among
      // them, need the tabindex.
      assert.equal(await page.getAttribute(selector, "tabindex"), "0");
    }
    const scrollable = await page.evaluate(
      () =>
        [...document.querySelectorAll("pre")].filter(
          (e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth,
        ).length,
    );
    assert.ok(scrollable >= 1, "a region that scrolls");
    await page.close();
  });

  it("the console has no errors while the page is used", async () => {
    const { page, errors } = await openPage();
    await page.goto(`${ui}/`);
    await page.fill("#umid", "urn:measured:usable");
    await page.keyboard.press("Enter");
    await page.locator("#result #verdict").waitFor();
    // Copied, or not where the clipboard is refused: either way, said, and no error.
    for (const copy of ["#copy-verdict", "#copy-receipt", "#copy-request"]) {
      await page.click(copy);
      await page.locator(`${copy}[data-copy-state]`).waitFor();
    }
    await page.fill("#umid", "urn:measured:suspended");
    await page.click("#look-up");
    await page.locator('#result #verdict[data-outcome="accepted-with-warnings"]').waitFor();
    assert.deepEqual(errors, []);
    // Chromium itself logs every 4xx answer to a fetch as an error, which no page can prevent; the page adds none of
    // its own.
    await lookUp(page, "urn:measured:nobody");
    assert.deepEqual(errors, ["Failed to load resource: the server responded with a status of 404 (Not Found)"]);
    await page.close();
  });
});
