/**
 * docs/library.md's examples, run as a reader runs them. Every ```ts or ```js block there
 * follows a line `<!-- runnable -->` and is followed by what it prints, a fenced block
 * after a line `<!-- output -->` (a `json` one is compared as JSON, since the formatter
 * lays it out). Each example is a whole ES module. It is type-checked
 * as a strict consumer project would (`manifest-resolver/evaluate` and
 * `manifest-resolver/client` mapped to core/evaluate/index.ts and core/client/index.ts),
 * then run in its own Node process, its specifiers rewritten to those files and
 * `https://resolver.example` to a resolver this test builds and serves. It runs in a
 * folder that holds the files the examples read: `alice.jsonld`, a manifest signed here
 * with a fresh key under a did:web of the resolver's host (which publishes its DID
 * document), `keys.json`, which pins that key, and `verifier`, the verifier key of the
 * resolver's transparency log, which `manifest-resolver log` kept over the content before
 * the build, which serves it. What it prints, the resolver's address written back as
 * `https://resolver.example`, must be the output shown.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createPublicKey } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { statusPath } from "../core/umid-path.ts";
import { freePort } from "./support/http.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { manifestFor, newKey } from "./support/fixture-content.ts";
import { CLI, ROOT } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";

const PAGE = "docs/library.md";
const PLACEHOLDER_ORIGIN = "https://resolver.example";
const ENTRIES: Record<string, string> = {
  "manifest-resolver/evaluate": join(ROOT, "core/evaluate/index.ts"),
  "manifest-resolver/client": join(ROOT, "core/client/index.ts"),
};

/** The UMIDs the examples name: served, revoked, and never published. */
const ALICE = "urn:uuid:2f1d5a8e-7c3b-4e9a-b6d4-0a1c3e5f7b92";
const REVOKED = "urn:uuid:9b4e7f1a-3d2c-4a8b-8e6f-5c1d0b2a4e73";

interface Example {
  /** The line its code starts on. */
  line: number;
  language: "ts" | "js";
  code: string;
  output: string;
  /** The output block's language: `json` is compared as JSON, since the formatter lays it out; any other, as text. */
  outputLanguage: string;
}

interface Fence {
  line: number;
  language: string;
  body: string;
  /** The HTML comment on the line before the fence, blank lines skipped. */
  mark: string | undefined;
}

/** The fenced code blocks of a Markdown text, each with the comment that marks it. */
function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    let close = lines.findIndex((line, j) => j > i && line.trim() === open[1]);
    if (close < 0) close = lines.length;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const mark = /^<!--\s*(.*?)\s*-->$/.exec(lines[before]?.trim() ?? "")?.[1];
    found.push({ line: i + 2, language: open[2]!, body: lines.slice(i + 1, close).join("\n"), mark });
    i = close;
  }
  return found;
}

/**
 * The examples of a page: every ts or js block, each of which must be marked runnable and
 * followed by its output; `problems` says where one is not.
 */
function examples(markdown: string): { found: Example[]; problems: string[] } {
  const all = fences(markdown);
  const found: Example[] = [];
  const problems: string[] = [];
  all.forEach((fence, i) => {
    const language = ({ ts: "ts", typescript: "ts", js: "js", javascript: "js" } as const)[fence.language];
    if (language === undefined) return;
    const output = all[i + 1];
    if (fence.mark !== "runnable") problems.push(`${PAGE}:${fence.line}: not marked <!-- runnable -->`);
    else if (output?.mark !== "output") problems.push(`${PAGE}:${fence.line}: no <!-- output --> block follows`);
    else
      found.push({
        line: fence.line,
        language,
        code: fence.body,
        output: output.body,
        outputLanguage: output.language,
      });
  });
  return { found, problems };
}

const scratch = mkdtempSync(join(tmpdir(), "um-library-doc-"));
const work = join(scratch, "work");
const checked = join(scratch, "typecheck");
const key = newKey();
let resolver: Started;
let base: string;
let keyRef: string;

/** Signed under the did:web keyRef of the resolver's host. */
function signedAt(manifest: Record<string, unknown>): Record<string, unknown> {
  return { ...manifest, signature: signProfileA(manifest, key, keyRef, new Date("2026-01-01T00:00:00Z")) };
}

/** The `_keys.json` that pins the key for that keyRef. */
const pins = () => ({ [keyRef]: createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64") });

/** Alice's manifest: two facets, one consent valid until the manifest expires, one expired. */
function alice(): Record<string, unknown> {
  // Valid for a year from now, so the examples run at the wall clock, as a reader's do.
  const expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
  const consent = (facet: string, expires: string) => ({
    "@id": `urn:um:consent:${facet}`,
    "@type": "um:Consent",
    facetRef: `urn:um:facet:${facet}`,
    scope: ["read"],
    purpose: "display",
    grantedAt: "2026-01-01T00:00:00Z",
    expiresAt: expires,
  });
  const manifest = signedAt(
    manifestFor(ALICE, {
      subject: "did:web:alice.example",
      expiresAt,
      facets: ["profile", "health"].map((name) => ({
        "@id": `urn:um:facet:${name}`,
        "@type": "um:Facet",
        name,
      })),
      consents: [consent("profile", expiresAt), consent("health", "2026-05-01T00:00:00Z")],
    }),
  );
  // statusRef is outside the signing input (core §1.6.2): set after signing, as sign --status-base does.
  return { ...manifest, signature: { ...(manifest.signature as object), statusRef: base + statusPath(ALICE) } };
}

before(async () => {
  const port = await freePort();
  // localhost, so that the keyRef can be a did:web of the resolver's own host, whose document the build publishes.
  base = `http://localhost:${port}`;
  keyRef = `did:web:localhost%3A${port}#key-1`;
  const content = join(scratch, "content");
  const dist = join(scratch, "dist");
  for (const dir of [content, work, checked]) mkdirSync(dir, { recursive: true });
  const published = alice();
  writeFileSync(join(content, "alice.jsonld"), JSON.stringify(published, null, 2));
  writeFileSync(join(content, "revoked.json"), JSON.stringify(signedAt(manifestFor(REVOKED)), null, 2));
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pins()));
  writeFileSync(
    join(content, "_routes.json"),
    JSON.stringify({ revoked: [{ umid: REVOKED, revokedAt: "2026-03-01T00:00:00Z", reason: "key lost" }] }),
  );
  const logKey = join(scratch, "log.pem");
  writeFileSync(logKey, newKey().export({ format: "pem", type: "pkcs8" }));
  const logged = await runCliInProcess(["log", "--key", logKey, "--content", content], scratch, {
    UM_RESOLVER_URL: base,
  });
  assert.equal(logged.status, 0, logged.stdout + logged.stderr);
  const built = await runCliInProcess(
    ["build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`],
    scratch,
    {
      UM_RESOLVER_URL: base,
    },
  );
  assert.equal(built.status, 0, built.stdout + built.stderr);
  resolver = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", base.split(":")[2]!]);
  // What the examples read: the manifest as its holder presented it, and the keys pinned for it.
  writeFileSync(join(work, "alice.jsonld"), JSON.stringify(published, null, 2));
  writeFileSync(join(work, "keys.json"), JSON.stringify(pins(), null, 2));
  writeFileSync(join(work, "verifier"), readFileSync(join(content, "_log", "verifier")));
});

after(async () => {
  await resolver?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe(PAGE, () => {
  const { found, problems } = examples(readFileSync(join(ROOT, PAGE), "utf8"));

  it("has examples, each marked runnable and followed by its output", () => {
    assert.deepEqual(problems, []);
    assert.ok(found.length >= 4, `${found.length} examples`);
  });

  it("type-checks every TypeScript example against the library's sources, strictly", () => {
    const files = found
      .filter((example) => example.language === "ts")
      .map((example) => {
        const file = join(checked, `library.md-line-${example.line}.mts`);
        writeFileSync(file, example.code);
        return file;
      });
    writeFileSync(
      join(checked, "tsconfig.json"),
      JSON.stringify({
        extends: join(ROOT, "tsconfig.json"),
        compilerOptions: {
          paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [file]])),
          typeRoots: [join(ROOT, "node_modules/@types")],
        },
        include: [],
        exclude: [],
        files,
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", checked], {
      encoding: "utf8",
    });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  });

  for (const example of found) {
    it(`${PAGE}:${example.line} prints what the page shows`, () => {
      let code = example.code.replaceAll(PLACEHOLDER_ORIGIN, base);
      for (const [name, file] of Object.entries(ENTRIES))
        code = code.replaceAll(`"${name}"`, JSON.stringify(pathToFileURL(file).href));
      assert.doesNotMatch(code, /["']manifest-resolver\//, "an import of an entry the package does not have");
      const file = join(scratch, `library.md-line-${example.line}.${example.language === "ts" ? "mts" : "mjs"}`);
      writeFileSync(file, code);
      const run = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), file], {
        cwd: work,
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(run.status, 0, run.stderr);
      const printed = run.stdout.replaceAll(base, PLACEHOLDER_ORIGIN);
      if (example.outputLanguage === "json") assert.deepEqual(JSON.parse(printed), JSON.parse(example.output));
      else assert.equal(printed, `${example.output}\n`);
    });
  }
});
