/**
 * The lookup page's meta tags of the publisher's own: the log's verifier key and its witness policy, naming the log
 * (build, serve, dev), and the introduction's samples (serve and dev only), read by name by the page; each value
 * escaped so that no UMID of the content can leave its attribute.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer } from "../core/tlog/note-signature.ts";
import { lookupPageFiles } from "../scripts/lookup-page-files/files.ts";
import {
  type LookupSample,
  lookupSamples,
  MAX_SAMPLES,
  publishersLog,
} from "../scripts/lookup-page-files/page-meta.ts";
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

/** A witness line of a policy, of a cosigner key made here. */
async function witnessLine(name: string): Promise<string> {
  const signer = (await ed25519Signer({ name, seed: crypto.getRandomValues(new Uint8Array(32)) }, COSIGNATURE_TYPE))!;
  return `witness ${name} ${formatVerifierKey(name, signer.publicKey, COSIGNATURE_TYPE)}`;
}

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
    const logPolicy = `${hostile}\nquorum none\n`;
    const [index] = await lookupPageFiles(`https://r.example/${hostile}`, hostile, {
      logKey: hostile,
      logPolicy,
      samples,
    });
    const html = new TextDecoder().decode(index!.bytes);
    assert.deepEqual(elements(html), elements(template), "no element added or lost");
    assert.deepEqual(JSON.parse(metaContent(html, "manifest-resolver-samples")), samples);
    assert.equal(metaContent(html, "manifest-resolver-log-key"), hostile);
    assert.equal(metaContent(html, "manifest-resolver-log-policy"), logPolicy);
    assert.equal(metaContent(html, "manifest-resolver-stands-in-for"), hostile);
    assert.equal(metaContent(html, "manifest-resolver"), `https://r.example/${hostile}`);
  });

  it("build fills in the log's verifier key and no samples", () => {
    const html = readFileSync(join(`${fixture.dist}-lookup`, "index.html"), "utf8");
    assert.match(verifier, /^[^+\s]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/);
    assert.equal(metaContent(html, "manifest-resolver-log-key"), verifier);
    assert.equal(metaContent(html, "manifest-resolver-samples"), "");
    // The fixture's log has no witness policy.
    assert.equal(metaContent(html, "manifest-resolver-log-policy"), "");
  });

  it("the log's policy is the client's: its log line added when it has none; one that cannot be used is none", async () => {
    const content = mkdtempSync(join(tmpdir(), "um-page-policy-"));
    try {
      mkdirSync(join(content, "_log"));
      writeFileSync(join(content, "_log", "verifier"), `${verifier}\n`);
      const policy = (text: string) => writeFileSync(join(content, "_log", "policy"), text);
      assert.deepEqual(await publishersLog(content), { logKey: verifier, logPolicy: "" });
      const witnessed = `# the publisher's witnesses\n${await witnessLine("w1.example")}\nquorum w1.example\n`;
      policy(witnessed);
      assert.deepEqual(await publishersLog(content), { logKey: verifier, logPolicy: `log ${verifier}\n${witnessed}` });
      // One that names the log already is given as it is.
      policy(`log ${verifier}\n${witnessed}`);
      assert.equal((await publishersLog(content)).logPolicy, `log ${verifier}\n${witnessed}`);
      // One that does not parse, or names another log: `check` and `build` refuse it (log/bad-policy).
      policy("quorum w9.example\n");
      assert.deepEqual(await publishersLog(content), { logKey: verifier, logPolicy: "" });
      const other = (await ed25519Signer({ name: "other.example", seed: new Uint8Array(32) }))!;
      policy(`log ${formatVerifierKey(other.name, other.publicKey)}\n${witnessed}`);
      assert.equal((await publishersLog(content)).logPolicy, "");
      // Without a verifier, a policy naming no log names none: the page could not use it.
      rmSync(join(content, "_log", "verifier"));
      policy(witnessed);
      assert.deepEqual(await publishersLog(content), { logKey: "", logPolicy: "" });
    } finally {
      rmSync(content, { recursive: true, force: true });
    }
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

  it("serve --ui-port fills them in: the samples of what it serves, and the key and policy of its log", async () => {
    const witnessed = `${await witnessLine("w1.example")}\nquorum w1.example\n`;
    const policyFile = join(fixture.content, "_log", "policy");
    writeFileSync(policyFile, witnessed);
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
      assert.equal(metaContent(html, "manifest-resolver-log-policy"), `log ${verifier}\n${witnessed}`);
      const samples = JSON.parse(metaContent(html, "manifest-resolver-samples")) as LookupSample[];
      // The sample the printed link opens is the introduction's first (one whose body is missing is no sample).
      const link = /^look one up: (http:\S+)$/m.exec(server.output ?? "")?.[1];
      assert.equal(samples[0]!.umid, new URL(link!).searchParams.get("umid"));
      assert.ok(!samples.some(({ umid }) => umid === fixture.corruptMissing));
      assert.deepEqual(samples, lookupSamples(fixture.dist, samples[0]!.umid));
    } finally {
      await server.stop();
      rmSync(policyFile);
    }
  });
});
