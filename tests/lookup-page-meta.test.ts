/**
 * The lookup page's two meta tags of the publisher's own: the log's verifier key (build, serve, dev) and the
 * introduction's samples (serve and dev only), read by name by the page; each value escaped so that no UMID of the
 * content can leave its attribute.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { lookupPageFiles } from "../scripts/lookup-page-files/files.ts";
import { type LookupSample, lookupSamples, MAX_SAMPLES } from "../scripts/lookup-page-files/page-meta.ts";
import { makeFixture } from "./support/fixture-content.ts";
import { CLI } from "./support/paths.ts";
import { servedAt, startPrintingUrl } from "./support/processes.ts";

/** The content of the meta element named `name`, its character references decoded as an HTML parser decodes them. */
function metaContent(html: string, name: string): string {
  const found = [...html.matchAll(/<meta name="([^"]*)" content="([^"]*)">/g)].filter(([, n]) => n === name);
  assert.equal(found.length, 1, `one meta named ${name}`);
  return found[0]![2]!.replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&amp;", "&");
}

const elements = (html: string) => [...html.matchAll(/<(meta|script|link|style|body)\b/g)].map(([, tag]) => tag);

describe("the lookup page's meta tags", () => {
  const fixture = makeFixture();
  after(() => fixture.cleanup());
  const verifier = readFileSync(join(fixture.content, "_log/verifier"), "utf8").trimEnd();

  it("a hostile UMID, label or key stays inside its attribute, whatever it holds", async () => {
    const template = readFileSync(new URL("../lookup-page/index.html", import.meta.url), "utf8");
    const hostile = `"><script>alert(1)</script><meta name="manifest-resolver-log-key" content="x">$'$&$1&quot;'`;
    const samples: LookupSample[] = [
      { umid: hostile, label: `</meta>&amp;<b>${hostile}` },
      { umid: "urn:x:\u2028\u{1f680}", label: "ok" },
    ];
    const [index] = await lookupPageFiles(`https://r.example/${hostile}`, hostile, { logKey: hostile, samples });
    const html = new TextDecoder().decode(index!.bytes);
    assert.deepEqual(elements(html), elements(template), "no element added or lost");
    assert.deepEqual(JSON.parse(metaContent(html, "manifest-resolver-samples")), samples);
    assert.equal(metaContent(html, "manifest-resolver-log-key"), hostile);
    assert.equal(metaContent(html, "manifest-resolver-stands-in-for"), hostile);
    assert.equal(metaContent(html, "manifest-resolver"), `https://r.example/${hostile}`);
  });

  it("build fills in the log's verifier key and no samples", () => {
    const html = readFileSync(join(`${fixture.dist}-lookup`, "index.html"), "utf8");
    assert.match(verifier, /^[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/);
    assert.equal(metaContent(html, "manifest-resolver-log-key"), verifier);
    assert.equal(metaContent(html, "manifest-resolver-samples"), "");
  });

  it("samples: one of each state before a second of any, the first asked for first, the same each time", () => {
    const first = "frag#ment";
    const samples = lookupSamples(fixture.dist, first);
    assert.deepEqual(lookupSamples(fixture.dist, first), samples);
    assert.equal(samples.length, MAX_SAMPLES);
    assert.equal(samples[0]!.umid, first);
    const stateOf = ({ umid }: LookupSample) =>
      fixture.revoked.includes(umid)
        ? "revoked"
        : fixture.redirects.has(umid)
          ? "redirected"
          : fixture.statuses.get(umid)?.status === "suspended"
            ? "suspended"
            : "active";
    const states = samples.map(stateOf);
    // The fixture has one suspended UMID, and more than two of every other state: two rounds, and the third's active.
    assert.deepEqual(states, [
      "active",
      "active",
      "active",
      "suspended",
      "redirected",
      "redirected",
      "revoked",
      "revoked",
    ]);
    for (const sample of samples) {
      const state = stateOf(sample);
      if (state === "revoked") assert.equal(sample.label, "revoked");
      else if (state === "redirected")
        assert.equal(sample.label, `redirected to ${new URL(fixture.redirects.get(sample.umid)!).host}`);
      else {
        const subject = fixture.published.get(sample.umid)?.subject as string | undefined;
        assert.ok(sample.label.startsWith(subject ?? "manifest"), sample.label);
        assert.equal(sample.label.endsWith(", suspended"), state === "suspended", sample.label);
      }
    }
  });

  it("serve --ui-port fills in both: the samples of what it serves, and the key of the project's log", async () => {
    const server = await startPrintingUrl(
      process.execPath,
      [CLI, "serve", "--dist", fixture.dist, "--port", "0", "--ui-port", "0"],
      process.env,
      3,
      fixture.root,
    );
    try {
      const html = await (await fetch(servedAt(server).page)).text();
      assert.equal(metaContent(html, "manifest-resolver-log-key"), verifier);
      const samples = JSON.parse(metaContent(html, "manifest-resolver-samples")) as LookupSample[];
      // The sample the printed link opens is the introduction's first (one whose body is missing is no sample).
      const link = /^look one up: (http:\S+)$/m.exec(server.output ?? "")?.[1];
      assert.equal(samples[0]!.umid, new URL(link!).searchParams.get("umid"));
      assert.ok(!samples.some(({ umid }) => umid === fixture.corruptMissing));
      assert.deepEqual(samples, lookupSamples(fixture.dist, samples[0]!.umid));
    } finally {
      await server.stop();
    }
  });
});
