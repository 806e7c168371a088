/**
 * The publisher's files under mutated input (issue 37, defect 10): `_routes.json`, `_keys.json`, `_resolvers.json`
 * and the status list allocation in `_status/`, each read by the reader `check` and `build` use, then a whole content
 * folder with one file damaged (those, manifests, a legacy payload and its opt-in in `_unsigned.json`), checked as
 * `check` checks it and `build` builds it, and its verification cache damaged under a digest that vouches for it. Every fault is a diagnostic naming a rule of the
 * registry; nothing throws.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { VerificationCache } from "../../scripts/cache/verification-cache.ts";
import { runCommand } from "../../scripts/cli/dispatch.ts";
import { cliCommand } from "../support/cli-command.ts";
import { checkContent } from "../../scripts/check/check-content.ts";
import { checkKeys } from "../../scripts/check/keys.ts";
import { checkResolversDocument } from "../../scripts/check/resolvers-document.ts";
import { checkRoutesText } from "../../scripts/check/routes.ts";
import { checkStatusAllocation } from "../../scripts/check/status-allocation.ts";
import { settingsFromEnv } from "../../scripts/config.ts";
import { allocateStatusEntries } from "../../scripts/edit/status-allocation.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";
import { FIXTURE_RESOLVER_URL, manifestFor, newKey, pinning, signed } from "../support/fixture-content.ts";
import { assertRuleIds, documentText, excerpt, holds, mutatedBytes } from "../support/properties.ts";

const build = await cliCommand("build");

const settings = settingsFromEnv({ UM_RESOLVER_URL: FIXTURE_RESOLVER_URL });
const validators = schemaValidators(settings.contextUrl, settings.resolverUrl);
const errors = (diagnostics: readonly { severity: string; rule: string }[]) =>
  diagnostics.filter((d) => d.severity === "error").map((d) => d.rule);

const scratch = mkdtempSync(join(tmpdir(), "um-property-content-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const content = join(scratch, "content");
const key = newKey();

/** Every file of the content folder, by its path there, as written before any is damaged. */
const files = new Map<string, string>();
const write = (path: string, text: string) => {
  mkdirSync(join(content, path, ".."), { recursive: true });
  writeFileSync(join(content, path), text);
};
/** Runs `read` with the content's file `path` holding `text`, then puts the file back. */
async function withFile<T>(path: string, text: string, read: () => T | Promise<T>): Promise<T> {
  write(path, text);
  try {
    return await read();
  } finally {
    write(path, files.get(path)!);
  }
}

before(async () => {
  mkdirSync(content);
  const umids = ["urn:property:a", "urn:property:b", "urn:property:suspended"];
  const allocated = await allocateStatusEntries(content, umids, {
    statusBase: FIXTURE_RESOLVER_URL,
    resolverUrl: FIXTURE_RESOLVER_URL,
    lockWaitMs: 5_000,
  });
  assert.ok(allocated instanceof Map);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  for (const umid of umids) {
    // The statusRef lies outside the signed content, as `sign --status-list` writes it.
    const manifest = signed(manifestFor(umid), key) as { signature: Record<string, unknown> };
    const statusRef = allocated.get(umid);
    files.set(
      `${umid.slice("urn:property:".length)}.json`,
      json({ ...manifest, signature: { ...manifest.signature, statusRef } }),
    );
  }
  files.set("_keys.json", json(pinning(key)));
  // A v0.1 payload, which defines no verifiable signature, published by its opt-in in _unsigned.json.
  const legacy = {
    ...manifestFor("urn:property:legacy"),
    "@context": "https://universalmanifest.net/ns/v0.1",
    manifestVersion: "0.1",
  };
  files.set("legacy.json", json(legacy));
  const digest = `sha256-${createHash("sha256").update(canonicalize(legacy)).digest("base64url")}`;
  files.set("_unsigned.json", json({ "legacy.json": digest }));
  files.set(
    "_routes.json",
    json({
      redirects: [{ umid: "urn:property:moved", location: "https://elsewhere.example/moved" }],
      revoked: [{ umid: "urn:property:gone", revokedAt: "2026-01-01T00:00:00Z", reason: "withdrawn" }],
      suspended: [{ umid: "urn:property:suspended", suspendedAt: "2026-02-01T00:00:00Z" }],
    }),
  );
  files.set(
    "_resolvers.json",
    json({
      resolver: "did:web:fixture.example",
      peers: [{ url: "https://peer.example/", did: "did:web:peer.example" }],
    }),
  );
  for (const name of readdirSync(join(content, "_status")))
    files.set(`_status/${name}`, readFileSync(join(content, "_status", name), "utf8"));
  for (const [path, text] of files) write(path, text);
});

const check = (cache?: VerificationCache) =>
  checkContent(content, { settings, now: new Date("2026-06-01T00:00:00Z"), strict: false, ...(cache && { cache }) });
const sampleOf = (path: string) => JSON.parse(files.get(path)!) as unknown;
const allocationFile = () => [...files.keys()].find((path) => path.startsWith("_status/"))!;

describe("properties: the publisher's files, each read alone", () => {
  it("_routes.json", async () => {
    assert.deepEqual(errors(checkRoutesText("_routes.json", files.get("_routes.json")!, validators).diagnostics), []);
    await holds(
      "_routes.json",
      fc.property(documentText(sampleOf("_routes.json")), (text) => {
        assertRuleIds(checkRoutesText("_routes.json", text, validators).diagnostics, text);
      }),
      400,
    );
  });

  it("_keys.json", async () => {
    const path = join(content, "_keys.json");
    assert.deepEqual(errors(checkKeys(path, validators).diagnostics), []);
    await holds(
      "_keys.json",
      fc.asyncProperty(documentText(sampleOf("_keys.json")), async (text) => {
        assertRuleIds(await withFile("_keys.json", text, () => checkKeys(path, validators).diagnostics), text);
      }),
      150,
    );
  });

  it("_resolvers.json", async () => {
    assert.deepEqual(errors(checkResolversDocument(content, "").diagnostics), []);
    await holds(
      "_resolvers.json",
      fc.asyncProperty(documentText(sampleOf("_resolvers.json")), async (text) => {
        const checked = await withFile("_resolvers.json", text, () => checkResolversDocument(content, ""));
        assertRuleIds(checked.diagnostics, text);
      }),
      150,
    );
  });

  it("_status/", async () => {
    const path = allocationFile();
    assert.deepEqual(errors(checkStatusAllocation(content, FIXTURE_RESOLVER_URL).diagnostics), []);
    await holds(
      "_status/",
      fc.asyncProperty(documentText(sampleOf(path)), async (text) => {
        const checked = await withFile(path, text, () => checkStatusAllocation(content, FIXTURE_RESOLVER_URL));
        assertRuleIds(checked.diagnostics, text);
      }),
      150,
    );
  });
});

describe("properties: a content folder with one file damaged", () => {
  it("check answers with diagnostics of the registry's rules", async () => {
    assert.deepEqual(errors((await check()).diagnostics), []);
    const damaged = fc
      .constantFrom(...files.keys())
      .chain((path) => documentText(sampleOf(path)).map((text) => [path, text] as const));
    await holds(
      "content folder",
      fc.asyncProperty(damaged, async ([path, text]) => {
        const checked = await withFile(path, text, () => check());
        assertRuleIds(checked.diagnostics, `${path}: ${excerpt(text)}`);
      }),
      120,
    );
  });
});

describe("properties: the verification cache, damaged under a digest that vouches for it", () => {
  it("check reads it, or checks again, and answers with the registry's rules", async () => {
    const dir = join(scratch, "cache");
    const cold = new VerificationCache(dir, false);
    assert.deepEqual(errors((await check(cold)).diagnostics), []);
    cold.save();
    const file = join(dir, "verification.json");
    const saved = readFileSync(file);
    const newline = saved.indexOf(10);
    const header = saved.subarray(0, newline).toString();
    // Every manifest recalled: the legacy payload too.
    assert.equal((await check(new VerificationCache(dir, false))).recalled, 4);
    await holds(
      "verification cache",
      fc.asyncProperty(mutatedBytes(saved.subarray(newline + 1)), async (body) => {
        // The digest recomputed, so that the damaged entries are read rather than the file ignored whole.
        const digest = createHash("sha256").update(body).digest("base64url");
        const vouched = header.replace(/"sha256":"[^"]*"/, `"sha256":"${digest}"`);
        writeFileSync(file, Buffer.concat([Buffer.from(vouched), Buffer.from("\n"), body]));
        const checked = await check(new VerificationCache(dir, false));
        assertRuleIds(checked.diagnostics, excerpt(body));
      }),
      40,
    );
    writeFileSync(file, saved);
  });
});

describe("properties: build over a content folder with one file damaged", () => {
  it("publishes, or refuses with its problems, and never throws", async () => {
    process.env.UM_RESOLVER_URL = FIXTURE_RESOLVER_URL;
    const out = (name: string) =>
      ["--out", "--lookup-out", "--kv-out"].flatMap((o) => [o, join(scratch, `${name}${o}`)]);
    const built = async () => {
      const { log, error } = console;
      console.log = () => {};
      console.error = () => {};
      try {
        return await runCommand(build, ["--content", content, "--no-verification-cache", ...out("dist")]);
      } finally {
        Object.assign(console, { log, error });
      }
    };
    assert.equal(await built(), 0);
    const damaged = fc
      .constantFrom(...files.keys())
      .chain((path) => documentText(sampleOf(path)).map((text) => [path, text] as const));
    await holds(
      "build",
      fc.asyncProperty(damaged, async ([path, text]) => {
        const status = await withFile(path, text, built);
        assert.ok(status === 0 || status === 1, `exit ${status}: ${path}: ${excerpt(text)}`);
      }),
      60,
    );
  });
});
