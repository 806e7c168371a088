/**
 * The CLI's surface as a newcomer meets it: every command's help ends with an example
 * that runs in a fresh clone (the files it names exist, a file it writes after --out
 * need not; the UMIDs it names are the sample content's); `--version`; "did you mean"
 * for a mistyped command or option; `sign DIR`; `npm start`'s link to a usable UMID. Only
 * the help examples are about the sample content: the rest make content of their own.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import fg from "fast-glob";
import { evaluate } from "../core/evaluate/index.ts";
import { resolve } from "../core/client/index.ts";
import { COMMANDS } from "../scripts/commands/main.ts";
import { writeFiles } from "./support/file-tree.ts";
import {
  consentFor,
  facetOf,
  FIXTURE_KEY_REF,
  manifestFor,
  newKey,
  pinning,
  signed,
} from "./support/fixture-content.ts";
import { manifestsOfEveryShape } from "./support/manifest-shapes.ts";
import { CLI, ROOT } from "./support/paths.ts";
import { assertUsageError } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { runCli, servedAt, startPrintingUrl } from "./support/processes.ts";
import { skipWithoutSampleContent } from "./support/sample-content.ts";
import { keyInDidDocument } from "../core/did/document-key.ts";

test("every command's examples name files of a fresh clone and sample UMIDs", {
  skip: skipWithoutSampleContent,
}, async () => {
  const sampleUmids = new Set<string>([
    ...fg
      .sync("content/**/*.jsonld", { cwd: ROOT })
      .map((file) => JSON.parse(readFileSync(join(ROOT, file), "utf8"))["@id"] as string),
    ...Object.values(JSON.parse(readFileSync(join(ROOT, "content/_routes.json"), "utf8")) as { umid: string }[][])
      .flat()
      .map((entry) => entry.umid),
  ]);
  for (const command of await Promise.all(COMMANDS.map((entry) => entry.load()))) {
    const examples = /\nExamples?:\n((?: {2}.*\n?)+)$/.exec(command.help)?.[1];
    assert.ok(examples, `${command.name} --help ends with an example`);
    const words = examples.split(/\s+/).map((word) => word.replace(/^'|'$/g, ""));
    words.forEach((word, i) => {
      if (/^(content|tests)\//.test(word) && !["--out", "--file"].includes(words[i - 1]!))
        assert.ok(
          existsSync(join(ROOT, word)),
          `${command.name} --help names ${word}, which a fresh clone does not have`,
        );
      if (/^urn:uuid:/.test(word))
        assert.ok(
          sampleUmids.has(word),
          `${command.name} --help names ${word}, which the sample content does not publish, redirect or revoke`,
        );
    });
  }
});

/** `serve` from `repo` as npm start runs it, on free ports: its URL, the lookup page's, and a link to look one up. */
const serveWithLookupPage = (repo: string) =>
  startPrintingUrl(process.execPath, [CLI, "serve", "--port", "0", "--ui-port", "0"], process.env, 3, repo);

test("serve links the most usable manifest when none is accepted as it is", async () => {
  const repo = mkdtempSync(join(tmpdir(), "um-start-"));
  try {
    // Twenty a Tier 0 relying party rejects, and one it accepts with a warning (a purpose it cannot verify).
    const key = newKey();
    const rejected = Array.from({ length: 20 }, (_, i) =>
      manifestFor(`urn:start:tier1:${i}`, { requiredTrustTier: 1 }),
    );
    const withWarning = manifestFor("urn:start:purpose", {
      facets: [facetOf("urn:start:facet", { name: "profile" })],
      consents: [consentFor("urn:start:facet", { expiresAt: "2099-01-01T00:00:00Z" })],
    });
    writeFiles(repo, {
      "package.json": {},
      "content/_keys.json": pinning(key),
      ...Object.fromEntries([...rejected, withWarning].map((m, i) => [`content/m${i}.jsonld`, signed(m, key)])),
    });
    assert.equal((await runCliInProcess(["build"], repo)).status, 0);
    const server = await serveWithLookupPage(repo);
    try {
      const link = /^look one up: (http:\S+)$/m.exec(server.output ?? "")?.[1];
      assert.equal(new URL(link!).searchParams.get("umid"), "urn:start:purpose");
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

// A consent of the sample content that lapsed on 2026-12-01 turned npm start's first lookup "with warnings" and
// failed the test below it: the sample and the test shapes are signed once, so their dates must stay years ahead.
test("the sample content and the test shapes expire nothing for three years", {
  skip: skipWithoutSampleContent,
}, () => {
  const horizon = Date.now() + 3 * 365 * 24 * 3600 * 1000;
  const samples = fg.sync("content/**/*.jsonld", { cwd: ROOT }).map((file) => readFileSync(join(ROOT, file), "utf8"));
  const shapes = manifestsOfEveryShape(newKey()).map((manifest) => JSON.stringify(manifest));
  const soon = [...samples, ...shapes].flatMap((text) =>
    // A liveness attestation's validUntil is minutes after it was made, on purpose: it is not one of these.
    [...text.matchAll(/"expiresAt":\s*"([^"]+)"/g)].map(([, at]) => at!).filter((at) => Date.parse(at) < horizon),
  );
  assert.deepEqual(soon, []);
});

test("npm start's sample content: the resolver serves the DID document that confirms its key", {
  skip: skipWithoutSampleContent,
}, async () => {
  const start = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.start as string;
  const resolverUrl = /UM_RESOLVER_URL=(\S+)/.exec(start)?.[1];
  assert.equal(resolverUrl, "http://localhost:8787");
  const pins = JSON.parse(readFileSync(join(ROOT, "content/_keys.json"), "utf8")) as Record<string, string>;
  const [keyRef, spki] = Object.entries(pins)[0]!;
  const did = keyRef.split("#")[0]!;
  assert.equal(did, "did:web:localhost%3A8787", "the sample key is a did:web of the resolver npm start serves");
  const out = mkdtempSync(join(tmpdir(), "sample-did-"));
  try {
    const built = await runCliInProcess(
      ["build", "--out", join(out, "dist"), "--lookup-out", join(out, "lookup")],
      ROOT,
      {
        UM_RESOLVER_URL: resolverUrl!,
      },
    );
    assert.equal(built.status, 0, built.stdout + built.stderr);
    // Served on another port than 8787, which may be taken: the document is the same.
    const served = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", join(out, "dist"), "--port", "0"]);
    try {
      const response = await fetch(`${served.urls[0]}/.well-known/did.json`);
      assert.equal(response.headers.get("content-type"), "application/did+json");
      const key = keyInDidDocument(await response.json(), did, keyRef);
      assert.ok("publicKey" in key, JSON.stringify(key));
      assert.equal(
        Buffer.from(key.publicKey).toString("base64"),
        Buffer.from(spki, "base64").subarray(12).toString("base64"),
      );
    } finally {
      await served.stop();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("npm start's sample content: a suspension reaches the library's resolve, through the manifest's statusRef", {
  skip: skipWithoutSampleContent,
}, async () => {
  const routes = JSON.parse(readFileSync(join(ROOT, "content/_routes.json"), "utf8"));
  const suspended: string = routes.suspended[0].umid;
  const out = mkdtempSync(join(tmpdir(), "sample-suspended-"));
  try {
    const built = await runCliInProcess(
      ["build", "--out", join(out, "dist"), "--lookup-out", join(out, "lookup")],
      ROOT,
      {
        UM_RESOLVER_URL: "http://localhost:8787",
      },
    );
    assert.equal(built.status, 0, built.stdout + built.stderr);
    // No sample manifest goes without a statusRef: a suspension of any reaches those who hold it.
    assert.doesNotMatch(built.stdout, /status-ref-missing/);
    const served = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", join(out, "dist"), "--port", "0"]);
    try {
      // The statusRef names npm start's port; the resolver here listens on another, which may be taken.
      const asked: string[] = [];
      const fetch = (url: string, init: RequestInit) => {
        asked.push(url);
        return globalThis.fetch(url.replace("http://localhost:8787", served.url), init);
      };
      const result = await resolve("http://localhost:8787", suspended, { fetch });
      assert.ok("receipt" in result, JSON.stringify(result));
      assert.equal(result.receipt.revocationStatus, "suspended");
      assert.ok(
        asked.some((url) => url.includes("/.well-known/manifest-resolver/status/")),
        asked.join("\n"),
      );
    } finally {
      await served.stop();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("--version prints the package's version", async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const result = await runCli(["--version"], ROOT);
  assert.equal(result.status, 0);
  assert.equal(result.stdout, `manifest-resolver ${version}\n`);
});

test("a mistyped command or option names the one meant, exit 2", async () => {
  assertUsageError(await runCliInProcess(["chekc"], ROOT), "'chekc'", "'check'");
  const option = await runCliInProcess(["check", "--jsno"], ROOT);
  assert.equal(option.status, 2);
  assert.equal(
    option.stderr,
    "manifest-resolver: unknown option '--jsno' for check; did you mean " +
      "'--json'?\nRun 'manifest-resolver check --help' for usage.\n",
  );
  // Nothing is near enough to name: the option typed is the only one quoted.
  const far = await runCliInProcess(["check", "--zzzzzz"], ROOT);
  assertUsageError(far, "'--zzzzzz'");
  assert.deepEqual(far.stderr.split("\n")[0]!.match(/'-[^']*'/g), ["'--zzzzzz'"]);
  // Node's parseArgs writes this one over three lines: one line here, then the hint.
  const ambiguous = await runCliInProcess(["check", "--max-problems", "-1"], ROOT);
  assertUsageError(ambiguous, "'--max-problems'", "'--max-problems=-XYZ'");
  assert.deepEqual(ambiguous.stderr.split("\n").slice(1), ["Run 'manifest-resolver check --help' for usage.", ""]);
});

test("sign DIR signs every manifest in it; a DIR with none is a usage error", async () => {
  const scratch = mkdtempSync(join(tmpdir(), "um-cli-"));
  try {
    const key = newKey();
    const keyFile = join(scratch, "signing.pem");
    writeFileSync(keyFile, key.export({ format: "pem", type: "pkcs8" }));
    // Unsigned manifests in DIR's folders, of both extensions, and one outside DIR that stays unsigned.
    writeFiles(join(scratch, "content"), {
      "_keys.json": pinning(key),
      "people/alice/profile.jsonld": manifestFor("urn:people:alice:profile"),
      "people/alice/identity-claims.json": manifestFor("urn:people:alice:claims"),
      "people/bob/zk-binding.jsonld": manifestFor("urn:people:bob"),
      "people/carol/liveness.jsonld": manifestFor("urn:people:carol"),
      "orgs/acme.jsonld": manifestFor("urn:orgs:acme"),
    });
    const signing = ["--key", keyFile, "--key-ref", FIXTURE_KEY_REF, "--content", join(scratch, "content")];
    const signed = await runCliInProcess(["sign", join(scratch, "content/people"), ...signing], scratch);
    assert.equal(signed.status, 0, signed.stderr);
    assert.deepEqual(
      signed.stdout
        .trim()
        .split("\n")
        .map((line) => line.replace(/ \(keyRef .*\)$/, ""))
        .sort(),
      [
        "signed content/people/alice/identity-claims.json",
        "signed content/people/alice/profile.jsonld",
        "signed content/people/bob/zk-binding.jsonld",
        "signed content/people/carol/liveness.jsonld",
      ],
    );
    const none = await runCliInProcess(["sign", join(ROOT, "tests/fixtures"), ...signing], scratch);
    assertUsageError(none, "tests/fixtures", "*.json", "*.jsonld");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("serve with the lookup page prints both URLs and a link to a UMID the page calls usable (npm start)", async () => {
  const repo = mkdtempSync(join(tmpdir(), "um-start-"));
  try {
    // A repository of its own, built and served from its root with the default folders, as npm start does;
    // manifests of every shape, some of which a relying party would not accept as they are.
    const key = newKey();
    const manifests = manifestsOfEveryShape(key);
    writeFiles(repo, {
      "package.json": {},
      "content/_keys.json": pinning(key),
      ...Object.fromEntries(manifests.map((manifest, i) => [`content/m${i}.jsonld`, manifest])),
    });
    const built = await runCliInProcess(["build"], repo);
    assert.equal(built.status, 0, built.stderr);
    const server = await serveWithLookupPage(repo);
    try {
      const link = /^look one up: (http:\S+)$/m.exec(server.output ?? "")?.[1];
      assert.ok(link, server.output);
      const query = new URL(link).searchParams;
      assert.equal(query.get("resolver"), servedAt(server).resolver);
      // The first active manifest a relying party accepts as it is (the page evaluates at Tier 0).
      const umid = query.get("umid")!;
      const i = manifests.findIndex((manifest) => manifest["@id"] === umid);
      assert.ok(i >= 0, `${umid} is one of the repository's manifests`);
      // Offline, as serve picks it: its start-up asks no DID's host.
      const picked = await evaluate(readFileSync(join(repo, `content/m${i}.jsonld`)), {}, { offline: true });
      assert.equal(picked.outcome, "accepted");
      assert.equal((await fetch(link)).status, 200);
      assert.equal(
        (await fetch(`${servedAt(server).resolver}/.well-known/manifest-resolver/status/${encodeURIComponent(umid)}`))
          .status,
        200,
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});
