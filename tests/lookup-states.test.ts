/**
 * The lookup page in every state it can be in, in Chromium (Debian's, driven by playwright-core), at 1280×900 and
 * 390×844, in the light and the dark scheme, read by the page's DOM contract (issue 40): the verdict's outcome and
 * tone, the six checks in their order and what each found, the live region, the receipt the verdict came from, the
 * title; then hostile input (markup in a UMID, a 3,000-character UMID, a resolver that never answers, Cancel), Back
 * between two lookups, the copy buttons, and axe-core, which finds no serious or critical violation in any of them.
 * The resolver is made here (support/lookup-states.ts); screenshots of each state go to test-results/lookup/, for
 * review (taken before the assertions, so that a state the page gets wrong is seen too).
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { resolve } from "../core/client/index.ts";
import { umidPath } from "../core/umid-path.ts";
import { launchChromium, serveFixtureDid, skipWithoutChromium } from "./support/chromium.ts";
import { pinning } from "./support/fixture-content.ts";
import {
  CONSENTED_PURPOSE,
  type LookupStates,
  REVOCATION,
  SUSPENSION,
  serveLookupStates,
  UMIDS,
  WITNESSES,
} from "./support/lookup-states.ts";
import { ROOT } from "./support/paths.ts";

const SCREENSHOTS = join(ROOT, "test-results", "lookup");
const CHECK_ORDER = ["signature", "key", "fresh", "status", "logged", "tier"] as const;
type CheckId = (typeof CHECK_ORDER)[number];
type CheckResult = "pass" | "warn" | "fail" | "skip";
const ALL_SKIPPED = Object.fromEntries(CHECK_ORDER.map((id) => [id, "skip"])) as Record<CheckId, CheckResult>;

/** The DOM, as far as the functions this file gives the page use it (it is type-checked without the DOM library). */
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement> & { length: number };
}

interface View {
  width: number;
  height: number;
  scheme: "light" | "dark";
}
const VIEWS: View[] = [
  { width: 1280, height: 900, scheme: "light" },
  { width: 390, height: 844, scheme: "light" },
  { width: 1280, height: 900, scheme: "dark" },
  { width: 390, height: 844, scheme: "dark" },
];

/** What the page must show for one lookup. */
interface Expected {
  outcome: string;
  tone: string;
  headline: string;
  /** What the checks named found; the others may find anything. */
  checks: Partial<Record<CheckId, CheckResult>>;
  /** The receipt's revocationStatus; undefined: not asserted. */
  revocationStatus?: string;
  /** The reason codes #reason-codes lists, among others. */
  codes?: string[];
  /** The fields the summary card gives, among others. */
  fields?: string[];
  /** The kinds of request #exchanges lists, among others. */
  exchanges?: string[];
  /** Whether a receipt is shown: every verdict made from one. */
  receipt: boolean;
}

const USABLE = { outcome: "accepted", tone: "ok", headline: "Usable", receipt: true } as const;
const DO_NOT_USE = { outcome: "rejected", tone: "bad", headline: "Do not use", receipt: true } as const;

describe("the lookup page's states", { skip: skipWithoutChromium }, () => {
  let world: LookupStates;
  let browser: Browser;
  const samples = [
    { umid: UMIDS.accepted, label: "A usable manifest" },
    { umid: UMIDS.revoked, label: "A revoked one" },
  ];

  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    world = await serveLookupStates(samples);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await world?.stop();
  });

  /** Runs `use` on a page of its own at `view`, in a context of its own (axe needs one), the signer's did:web served. */
  async function inView<T>(view: View, use: (page: Page) => Promise<T>, permissions: string[] = []): Promise<T> {
    const context = await browser.newContext({
      viewport: { width: view.width, height: view.height },
      colorScheme: view.scheme,
    });
    // A lookup here takes well under a second, a few on a loaded machine: a page that never shows what is awaited
    // fails in seconds, not in Playwright's default 30 s times each wait.
    context.setDefaultTimeout(20_000);
    try {
      if (permissions.length > 0) await context.grantPermissions(permissions, { origin: world.page });
      // tsx compiles this file keeping function names, through a helper `__name` that functions given to the page call.
      await context.addInitScript({ content: "globalThis.__name = (target) => target;" });
      await serveFixtureDid(context, world.key);
      return await use(await context.newPage());
    } finally {
      await context.close();
    }
  }

  /** The page at `view`, `use`d at every view at once: each view's page is its own. */
  async function atEveryView(use: (page: Page, view: View) => Promise<void>): Promise<void> {
    await Promise.all(VIEWS.map((view) => inView(view, (page) => use(page, view))));
  }

  /** The page at `view`, `use`d at each view in turn. */
  async function oneViewAtATime(use: (page: Page, view: View) => Promise<void>): Promise<void> {
    for (const view of VIEWS) await inView(view, (page) => use(page, view));
  }

  const lookupUrl = (umid: string, more: Record<string, string> = {}, resolver = world.resolver) =>
    `${world.page}/?${new URLSearchParams({ resolver, umid, ...more })}`;

  /** Opens the page with a link that asks for `umid`, and waits for its verdict. */
  async function lookUp(page: Page, umid: string, more: Record<string, string> = {}): Promise<void> {
    await page.goto(lookupUrl(umid, more));
    await verdictShown(page);
  }

  /** Waits for the end of a lookup: a verdict with its outcome, and the page ready for the next. */
  async function verdictShown(page: Page, outcome?: string): Promise<void> {
    const selector = outcome === undefined ? "[data-outcome]" : `[data-outcome="${outcome}"]`;
    await page.locator(`#result h2#verdict${selector}`).waitFor();
    await page.locator("#look-up:enabled").waitFor();
  }

  /** The page as it is now, for review: taken before any assertion, so that a state the page gets wrong is seen. */
  async function screenshot(page: Page, name: string, view: View): Promise<void> {
    const file = `${name}-${view.width}${view.scheme === "dark" ? "-dark" : ""}.png`;
    await page.screenshot({ path: join(SCREENSHOTS, file), fullPage: true });
  }

  /** Asserts axe-core finds no violation of impact serious or critical on the page as it is now. */
  async function assertAccessible(page: Page, where: string): Promise<void> {
    // Violations only: axe then details no node that passed, most of its work on a page.
    const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
    const serious = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    assert.deepEqual(serious, [], where);
  }

  /** Asserts each of `selectors` names one element, there but hidden (a locator of nothing counts as hidden). */
  async function assertHidden(page: Page, ...selectors: string[]): Promise<void> {
    for (const selector of selectors) {
      assert.equal(await page.locator(selector).count(), 1, selector);
      assert.equal(await page.locator(selector).isHidden(), true, selector);
    }
  }

  /** What #result shows of the verdict, read by the DOM contract in one call to the page. */
  function shown(page: Page) {
    return page.locator("#result").evaluate((result: PageElement) => {
      const attribute = (selector: string, name: string) => result.querySelector(selector)?.getAttribute(name) ?? null;
      const texts = (selector: string) => [...result.querySelectorAll(selector)].map((e) => e.textContent!.trim());
      const receipt = result.querySelector("details#receipt-block > pre#receipt")?.textContent;
      return {
        outcome: attribute("h2#verdict", "data-outcome"),
        tone: attribute("h2#verdict", "data-tone"),
        headline: result.querySelector("h2#verdict")?.textContent?.trim(),
        checks: [...result.querySelectorAll("ol#checklist > li")].map((li) => [
          li.getAttribute("data-check"),
          li.getAttribute("data-result"),
        ]),
        reasons: texts("ul#reasons > li"),
        // A verdict with no code (every check passed; no manifest came) may leave the block out.
        codes: texts("details#reason-codes").join("\n"),
        // Of the blocks the page keeps collapsed, those shown open.
        open: [...result.querySelectorAll("details#reason-codes, details#umid-full")]
          .filter((d) => d.hasAttribute("open"))
          .map((d) => d.getAttribute("id")),
        fields: [...result.querySelectorAll("dl#summary dd[data-field]")].map((dd) => dd.getAttribute("data-field")),
        exchanges: [...result.querySelectorAll("ol#exchanges > li")].map((li) => li.getAttribute("data-kind")),
        receipt: receipt == null ? undefined : (JSON.parse(receipt) as { outcome: string; revocationStatus: string }),
        copyReceipt: result.querySelectorAll("#copy-receipt").length,
      };
    });
  }

  /** Asserts the page shows `expected`, by the DOM contract. */
  async function assertShows(page: Page, expected: Expected, where: string): Promise<void> {
    const seen = {
      ...(await shown(page)),
      announcement: (await page.locator("#announcement").textContent())?.trim(),
      title: await page.title(),
    };
    assert.deepEqual(
      [seen.outcome, seen.tone, seen.headline],
      [expected.outcome, expected.tone, expected.headline],
      `${where}: ${seen.reasons.join(" / ")}`,
    );
    // Exactly six checks, in the one order, whatever the outcome.
    assert.deepEqual(
      seen.checks.map(([id]) => id),
      [...CHECK_ORDER],
      where,
    );
    const found = Object.fromEntries(seen.checks);
    for (const [id, result] of Object.entries(expected.checks))
      assert.equal(found[id], result, `${where}: the ${id} check, among ${JSON.stringify(found)}`);
    assert.ok(
      seen.checks.every(([, result]) => ["pass", "warn", "fail", "skip"].includes(result!)),
      `${where}: ${JSON.stringify(found)}`,
    );
    // The live region says, once the lookup is done, the headline and the most serious reason.
    assert.ok(seen.reasons.length > 0, `${where}: no reason`);
    assert.equal(seen.announcement, `${expected.headline}: ${seen.reasons[0]}`, where);
    // Reasons in plain words; their codes are behind the details toggle.
    for (const reason of seen.reasons) assert.ok(!reason.includes("um:reason:"), `${where}: ${reason}`);
    for (const code of expected.codes ?? [])
      assert.ok(seen.codes.includes(code), `${where}: ${code} in ${JSON.stringify(seen.codes)}`);
    assert.deepEqual(seen.open, [], `${where}: collapsed`);
    for (const field of expected.fields ?? [])
      assert.ok(seen.fields.includes(field), `${where}: the summary's ${field}, among ${seen.fields.join(", ")}`);
    for (const kind of expected.exchanges ?? [])
      assert.ok(seen.exchanges.includes(kind), `${where}: a ${kind} request among ${seen.exchanges.join(", ")}`);
    assert.ok(seen.title.startsWith(`${expected.headline} · `), `${where}: ${seen.title}`);
    assert.ok(seen.title.endsWith(" · Manifest lookup"), `${where}: ${seen.title}`);
    if (expected.receipt) {
      // The receipt printed is the one the verdict was made from.
      assert.equal(seen.receipt?.outcome, expected.outcome, where);
      if (expected.revocationStatus !== undefined)
        assert.equal(seen.receipt?.revocationStatus, expected.revocationStatus, where);
      assert.equal(seen.copyReceipt, 1, `${where}: #copy-receipt`);
    } else assert.deepEqual([seen.receipt, seen.copyReceipt], [undefined, 0], `${where}: no receipt`);
  }

  /** The lookups of each state: a UMID of the resolver's, what the link adds, and what the page must show. */
  const STATES: { name: string; umid: string; query?: () => Record<string, string>; expected: Expected }[] = [
    {
      name: "accepted",
      umid: UMIDS.accepted,
      expected: {
        ...USABLE,
        checks: { signature: "pass", key: "pass", fresh: "pass", status: "pass", logged: "skip", tier: "pass" },
        revocationStatus: "active",
        fields: ["umid", "subject", "signer", "issued", "expires", "status"],
        exchanges: ["manifest", "status", "did"],
      },
    },
    {
      name: "accepted-logged",
      umid: UMIDS.accepted,
      query: () => ({ logKey: world.logKey }),
      expected: {
        ...USABLE,
        checks: { signature: "pass", key: "pass", fresh: "pass", status: "pass", logged: "pass", tier: "pass" },
        exchanges: ["manifest", "status", "did", "log"],
      },
    },
    {
      name: "with-warnings",
      umid: UMIDS.consented,
      expected: {
        outcome: "accepted-with-warnings",
        tone: "warn",
        headline: "Usable with warnings",
        receipt: true,
        checks: { signature: "pass", key: "pass", fresh: "pass", status: "pass", logged: "skip", tier: "pass" },
        codes: ["um:reason:consent:purpose-unverified"],
      },
    },
    {
      name: "partial",
      umid: UMIDS.consented,
      query: () => ({ purpose: `not ${CONSENTED_PURPOSE}` }),
      expected: {
        outcome: "accepted-partial",
        tone: "warn",
        headline: "Partly usable",
        receipt: true,
        checks: { signature: "pass", key: "pass", fresh: "pass", status: "pass" },
      },
    },
    {
      name: "tier-1",
      umid: UMIDS.tier1,
      expected: {
        ...DO_NOT_USE,
        // The signature verified and the key was confirmed: only the tier fails.
        checks: { signature: "pass", key: "pass", fresh: "pass", tier: "fail" },
        codes: ["um:reason:trust:tier-unsupported"],
      },
    },
    {
      name: "forged",
      umid: UMIDS.forged,
      expected: { ...DO_NOT_USE, checks: { signature: "fail" }, codes: ["um:reason:crypto:signature-invalid"] },
    },
    {
      name: "expired",
      umid: UMIDS.expired,
      expected: { ...DO_NOT_USE, checks: { signature: "pass", fresh: "fail" }, codes: ["um:reason:time:expired"] },
    },
    {
      name: "suspended",
      umid: UMIDS.suspended,
      expected: {
        outcome: "accepted-with-warnings",
        tone: "warn",
        headline: "Usable with warnings",
        receipt: true,
        checks: { signature: "pass", key: "pass", status: "warn" },
        revocationStatus: "suspended",
        codes: ["um:reason:status:suspended"],
        exchanges: ["manifest", "status"],
      },
    },
    {
      name: "revoked",
      umid: UMIDS.revoked,
      expected: {
        ...DO_NOT_USE,
        checks: { status: "fail" },
        revocationStatus: "revoked",
        codes: ["um:reason:status:revoked"],
        exchanges: ["manifest", "status"],
      },
    },
    {
      name: "redirected",
      umid: UMIDS.redirected,
      expected: { ...USABLE, checks: { signature: "pass", key: "pass", fresh: "pass" }, exchanges: ["redirect"] },
    },
    {
      name: "moved-away",
      umid: UMIDS.movedAway,
      expected: {
        outcome: "unresolved",
        tone: "redirect",
        headline: "Moved elsewhere",
        receipt: false,
        checks: ALL_SKIPPED,
        exchanges: ["redirect"],
      },
    },
    {
      name: "unknown",
      umid: UMIDS.unknown,
      expected: { outcome: "not-found", tone: "bad", headline: "Not found", receipt: false, checks: ALL_SKIPPED },
    },
    {
      name: "rolled-back",
      umid: UMIDS.rolledBack,
      query: () => ({ logKey: world.logKey }),
      expected: { ...DO_NOT_USE, checks: { logged: "fail" }, codes: ["um:reason:log:not-latest"], exchanges: ["log"] },
    },
  ];

  it("the resolver gives the Node client each state's receipt: the fixtures are what the states need", async () => {
    const keys = pinning(world.key);
    const receiptOf = async (
      umid: string,
      more: { intendedPurpose?: string; logKey?: string; logPolicy?: string } = {},
    ) => {
      const { intendedPurpose, logKey, logPolicy } = more;
      const resolved = await resolve(world.resolver, umid, {
        keys,
        ...(intendedPurpose !== undefined && { context: { intendedPurpose } }),
        ...(logKey !== undefined && { logKey }),
        ...(logPolicy !== undefined && { logPolicy }),
      });
      assert.ok("receipt" in resolved, `${umid}: ${JSON.stringify(resolved)}`);
      const { outcome, revocationStatus, warnings } = resolved.receipt;
      return [outcome, revocationStatus, warnings.map((w) => w.code)];
    };
    assert.deepEqual(await receiptOf(UMIDS.accepted), ["accepted", "active", []]);
    assert.deepEqual(await receiptOf(UMIDS.accepted, { logKey: world.logKey }), ["accepted", "active", []]);
    assert.deepEqual(await receiptOf(UMIDS.accepted, { logPolicy: world.logPolicies.witnessed }), [
      "accepted",
      "active",
      [],
    ]);
    assert.deepEqual(await receiptOf(UMIDS.accepted, { logPolicy: world.logPolicies.oneMissing }), [
      "rejected",
      "unchecked",
      ["um:reason:log:unwitnessed"],
    ]);
    assert.deepEqual(await receiptOf(UMIDS.consented), [
      "accepted-with-warnings",
      "active",
      ["um:reason:consent:purpose-unverified"],
    ]);
    assert.deepEqual(await receiptOf(UMIDS.consented, { intendedPurpose: `not ${CONSENTED_PURPOSE}` }), [
      "accepted-partial",
      "active",
      [],
    ]);
    assert.deepEqual(await receiptOf(UMIDS.tier1), ["rejected", "active", ["um:reason:trust:tier-unsupported"]]);
    assert.deepEqual(await receiptOf(UMIDS.forged), ["rejected", "unchecked", ["um:reason:crypto:signature-invalid"]]);
    assert.deepEqual(await receiptOf(UMIDS.expired), ["rejected", "unchecked", ["um:reason:time:expired"]]);
    assert.deepEqual(await receiptOf(UMIDS.suspended), [
      "accepted-with-warnings",
      "suspended",
      ["um:reason:status:suspended"],
    ]);
    assert.deepEqual(await receiptOf(UMIDS.revoked), ["rejected", "revoked", ["um:reason:status:revoked"]]);
    // Both redirects' targets serve their manifest: only a browser's rule keeps the page from reading the second.
    assert.deepEqual(await receiptOf(UMIDS.redirected), ["accepted", "unchecked", []]);
    assert.deepEqual(await receiptOf(UMIDS.movedAway), ["accepted", "unchecked", []]);
    // The older body is validly signed: only the log tells it from the latest.
    assert.deepEqual(await receiptOf(UMIDS.rolledBack), ["accepted", "active", []]);
    assert.deepEqual(await receiptOf(UMIDS.rolledBack, { logKey: world.logKey }), [
      "rejected",
      "unchecked",
      ["um:reason:log:not-latest"],
    ]);
    const unknown = await resolve(world.resolver, UMIDS.unknown);
    assert.ok(!("receipt" in unknown) && unknown.status === 404, JSON.stringify(unknown));
  });

  for (const state of STATES)
    it(`${state.name}: ${state.expected.headline}, each check in its place, at both widths, light and dark`, () =>
      atEveryView(async (page, view) => {
        const where = `${state.name} at ${view.width}, ${view.scheme}`;
        await lookUp(page, state.umid, state.query?.());
        await screenshot(page, state.name, view);
        await assertShows(page, state.expected, where);
        await assertAccessible(page, where);
      }));

  it("a log policy: witnessed by 2 of 2 passes; a witness missing fails, naming it; one that does not parse", () =>
    inView(VIEWS[0]!, async (page) => {
      const logged = () => page.locator('#result ol#checklist > li[data-check="logged"]').innerText();
      // With the link's key too: the page passes the policy alone, which names its log (the client takes one).
      await lookUp(page, UMIDS.accepted, { logKey: world.logKey, logPolicy: world.logPolicies.witnessed });
      await screenshot(page, "witnessed", VIEWS[0]!);
      const witnessed: Expected = {
        ...USABLE,
        checks: { signature: "pass", key: "pass", fresh: "pass", status: "pass", logged: "pass", tier: "pass" },
        exchanges: ["log"],
      };
      await assertShows(page, witnessed, "witnessed");
      assert.match(await logged(), /witnessed by 2 of 2\b/);
      assert.match((await page.locator("#log-key-hint").textContent())!, /^Not used/);
      await assertAccessible(page, "witnessed");

      await lookUp(page, UMIDS.accepted, { logPolicy: world.logPolicies.oneMissing });
      await screenshot(page, "unwitnessed", VIEWS[0]!);
      const unwitnessed: Expected = { ...DO_NOT_USE, checks: { logged: "fail" }, codes: ["um:reason:log:unwitnessed"] };
      await assertShows(page, unwitnessed, "unwitnessed");
      const missing = await logged();
      assert.ok(missing.includes(WITNESSES.missing), missing);
      assert.ok(!WITNESSES.cosigning.some((name) => missing.includes(name)), missing);
      await assertAccessible(page, "unwitnessed");

      // The field's error names its line and column, in the field's name.
      await lookUp(page, UMIDS.accepted, { logPolicy: `log ${world.logKey}\nquorum nobody` });
      const [reason] = (await shown(page)).reasons;
      assert.match(reason!, /^the Log policy, line 2, column 8: /);
    }));

  it("a revocation and a suspension show their date and reason, from the status endpoint", () =>
    inView(VIEWS[0]!, async (page) => {
      for (const [umid, { at, reason }] of [
        [UMIDS.revoked, REVOCATION],
        [UMIDS.suspended, SUSPENSION],
      ] as const) {
        await lookUp(page, umid);
        const status = await page.locator('#result ol#checklist > li[data-check="status"]').innerText();
        const summary = await page.locator('#result dl#summary dd[data-field="status"]').innerText();
        for (const said of [status, summary])
          assert.ok(said.includes(at.slice(0, 10)) && said.includes(reason), `${umid}: ${said}`);
      }
    }));

  it("a redirect shows its target as a link", () =>
    inView(VIEWS[0]!, async (page) => {
      await lookUp(page, UMIDS.redirected);
      assert.equal(
        await page.locator("#result p.redirect > a#redirect-target").getAttribute("href"),
        world.targets.redirected,
      );
      await lookUp(page, UMIDS.movedAway);
      // A browser hides where an unreadable redirect leads: the link is its target, or the request that leads there.
      const href = await page.locator("#result p.redirect > a#redirect-target").getAttribute("href");
      assert.ok(
        [world.targets.movedAway, world.resolver + umidPath(UMIDS.movedAway)].includes(href!),
        `${href} is neither ${world.targets.movedAway} nor the request URL`,
      );
    }));

  it("the introduction lists the samples, each a link that looks it up; the form is as the contract says", () =>
    atEveryView(async (page, view) => {
      await page.goto(`${world.page}/`);
      await page.locator("main h1", { hasText: "Manifest lookup" }).waitFor();
      await screenshot(page, "intro", view);
      const links = page.locator("section#intro a.sample");
      assert.deepEqual(
        await links.allTextContents(),
        samples.map((s) => s.label),
        view.scheme,
      );
      for (const [i, sample] of samples.entries()) {
        const href = (await links.nth(i).getAttribute("href"))!;
        assert.ok(href.startsWith("?"), href);
        const query = new URLSearchParams(href.slice(1));
        assert.deepEqual([query.get("resolver"), query.get("umid")], [world.resolver, sample.umid], href);
      }
      const umid = page.locator("form#lookup input#umid");
      assert.deepEqual(
        [
          await umid.getAttribute("autocapitalize"),
          await umid.getAttribute("spellcheck"),
          await umid.getAttribute("autocomplete"),
        ],
        ["off", "false", "off"],
      );
      assert.equal(await page.locator("button#look-up").getAttribute("type"), "submit");
      await assertHidden(page, "form#lookup button#cancel", "form#lookup #progress");
      assert.equal(await page.locator("p#announcement").getAttribute("role"), "status");
      assert.equal(await page.locator("section#result").getAttribute("aria-labelledby"), "verdict");
      await assertAccessible(page, `intro at ${view.width}, ${view.scheme}`);
      if (view.width === 390 && view.scheme === "light") {
        await links.first().click();
        await verdictShown(page, "accepted");
      }
    }));

  // One view at a time: the lookup must still be under way at Cancel, however loaded the machine.
  it("asking a resolver that never answers: the page says so and can be cancelled; Cancel stops it", () =>
    oneViewAtATime(async (page, view) => {
      await page.goto(lookupUrl(UMIDS.accepted, {}, world.silent));
      await page.locator("form#lookup button#cancel:visible").waitFor();
      await screenshot(page, "asking", view);
      assert.equal(await page.locator("form#lookup button#look-up").isDisabled(), true);
      assert.equal(await page.locator("form#lookup #progress").isVisible(), true);
      assert.ok((await page.locator("#announcement").textContent())?.startsWith("Looking up"));
      await assertAccessible(page, `asking at ${view.width}, ${view.scheme}`);
      await page.click("form#lookup button#cancel");
      await verdictShown(page, "cancelled");
      await screenshot(page, "cancelled", view);
      await assertShows(
        page,
        { outcome: "cancelled", tone: "none", headline: "Cancelled", receipt: false, checks: ALL_SKIPPED },
        `cancelled at ${view.width}, ${view.scheme}`,
      );
      assert.equal(await page.locator("form#lookup button#look-up").isEnabled(), true);
      await assertHidden(page, "form#lookup button#cancel", "form#lookup #progress");
      await assertAccessible(page, `cancelled at ${view.width}, ${view.scheme}`);
    }));

  it("a UMID with markup in it is shown as text: nothing of it runs, no element of it is made", () =>
    inView(VIEWS[1]!, async (page) => {
      const umid = `urn:states:<img src=x onerror="window.injected = true">`;
      await page.goto(`${world.page}/`);
      const images = await page.locator("img, [onerror]").count();
      await lookUp(page, umid);
      // The page's policy would block the handler even if the element were made: that no element is, is the test.
      assert.equal(await page.evaluate("window.injected"), undefined);
      assert.equal(await page.locator("img, [onerror]").count(), images);
      assert.equal(
        await page
          .locator("#result details#umid-full")
          .textContent()
          .then((t) => t?.includes(umid)),
        true,
      );
    }));

  it("a 3,000-character UMID is printed whole once, collapsed: the result stays short on a phone", () =>
    inView(VIEWS[1]!, async (page) => {
      const umid = `urn:states:long:${"0123456789abcdef".repeat(188)}`.slice(0, 3_000);
      assert.equal(umid.length, 3_000);
      await lookUp(page, umid);
      const height = (await page.locator("#result").boundingBox())!.height;
      assert.ok(height < 2_500, `the result is ${height} px tall at 390 px wide`);
      const copies = (text: string | null) => (text ?? "").split(umid).length - 1;
      assert.equal(copies(await page.locator("#result details#umid-full").textContent()), 1);
      assert.equal(copies(await page.locator("body").textContent()), 1, "the full UMID, outside #umid-full");
      assert.equal(await page.locator("#result details#umid-full").getAttribute("open"), null);
      const short = await page.locator('#result dl#summary dd[data-field="umid"]').textContent();
      assert.ok(short !== null && short.length < umid.length, `the summary's UMID: ${short?.length} characters`);
    }));

  it("Back between two lookups shows the first verdict again, its title too, the DID document asked again", () =>
    inView(VIEWS[0]!, async (page) => {
      await lookUp(page, UMIDS.accepted);
      const first = page.url();
      await page.fill("#umid", UMIDS.revoked);
      await page.click("#look-up");
      await verdictShown(page, "rejected");
      assert.equal(new URL(page.url()).searchParams.get("umid"), UMIDS.revoked);
      assert.ok((await page.title()).startsWith("Do not use · "), await page.title());
      await page.goBack();
      await verdictShown(page, "accepted");
      assert.equal(page.url(), first);
      assert.ok((await page.title()).startsWith("Usable · "), await page.title());
      // Issue 40, defect 5: the second lookup of the UMID asks for its signer's DID document again, and lists it.
      assert.equal(await page.locator('#result ol#exchanges > li[data-kind="did"]').count(), 1);
    }));

  it("the copy buttons copy the receipt as JSON, the verdict and the request URL", () =>
    inView(
      VIEWS[0]!,
      async (page) => {
        await lookUp(page, UMIDS.suspended);
        const copied = async (button: string) => {
          await page.click(`#result #${button}`);
          await page.locator(`#result #${button}[data-copy-state]`).waitFor();
          assert.equal(await page.getAttribute(`#result #${button}`, "data-copy-state"), "copied", button);
          // A string, run in the page: this file is type-checked without the DOM library.
          return (await page.evaluate("navigator.clipboard.readText()")) as string;
        };
        const receipt = JSON.parse((await page.locator("#result pre#receipt").textContent())!);
        assert.deepEqual(JSON.parse(await copied("copy-receipt")), receipt);
        assert.equal(receipt.revocationStatus, "suspended");
        const headline = (await page.locator("#result h2#verdict").innerText()).trim();
        assert.ok((await copied("copy-verdict")).includes(headline), headline);
        assert.equal(await copied("copy-request"), world.resolver + umidPath(UMIDS.suspended));
      },
      ["clipboard-read", "clipboard-write"],
    ));
});
