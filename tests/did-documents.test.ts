/**
 * The did:web documents a build publishes (issue 25 §3; W3C CCG did:web, "Read (Resolve)"): only for keys pinned on
 * UM_RESOLVER_URL's host, its port included, compared as URL hosts are; below a base path, at the path the resolver
 * is asked there, and a warning for one outside it; two DIDs at one URL refused; a warm build, in place, as a cold one.
 * The contract cases (tests/contract/) serve the fixture's documents in every runtime.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { directoryReader } from "../edge/adapters/node.ts";
import { answer } from "../edge/handler.ts";
import { KvRecords } from "../edge/kv-records.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { fileDigests, writeFiles } from "./support/file-tree.ts";
import { type KvPair, kvPairs } from "./support/kv-files.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { assertUsageError, checkedFiles } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { routedIn } from "./support/route-table.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-did-documents-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const key = newKey();
const spki = createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64");
let built = 0;

/** Content whose one manifest is signed by the fixture's key (on another host), with `keyRefs` pinned to that key. */
function content(keyRefs: string[]): string {
  return writeFiles(join(scratch, `content-${++built}`), {
    "m.json": signed(manifestFor("urn:did-documents:m"), key),
    "_keys.json": { ...pinning(key), ...Object.fromEntries(keyRefs.map((keyRef) => [keyRef, spki])) },
  });
}

async function build(dir: string, resolverUrl: string | undefined, out = join(scratch, `out-${built}`)) {
  const result = await runCliInProcess(
    ["build", "--content", dir, "--out", out, "--lookup-out", `${out}-lookup`, "--kv-out", `${out}-kv`],
    scratch,
    resolverUrl === undefined ? {} : { UM_RESOLVER_URL: resolverUrl },
  );
  return { ...result, out };
}

/** What the handler answers for `path` over the static output `out`: status and the document's id, if any. */
async function served(out: string, path: string): Promise<{ status: number; id?: string }> {
  const got = await answer(
    { method: "GET", url: `https://resolver.example${path}`, headers: new Headers() },
    new StaticRecords().reading(directoryReader(out)),
  );
  const type = got.headers.find(([name]) => name === "Content-Type")?.[1];
  if (type !== "application/did+json") return { status: got.status };
  return { status: got.status, id: (JSON.parse(Buffer.from(got.body!).toString()) as { id: string }).id };
}

async function checkJson(dir: string, resolverUrl: string) {
  const result = await runCliInProcess(["check", "--offline", "--content", dir, "--json"], scratch, {
    UM_RESOLVER_URL: resolverUrl,
  });
  const keys = checkedFiles(result.stdout).find((file) => file.file.endsWith("_keys.json"))!;
  return { status: result.status, keys };
}

describe("the did:web documents build publishes", () => {
  it("none for keys on another host, or with no UM_RESOLVER_URL: no route, no KV pair but empty shards", async () => {
    const dir = content([
      "did:web:other.example#k",
      "did:web:resolver.example.evil#k",
      "did:web:resolver.example%3A8443#k",
      "did:web:sub.resolver.example#k",
    ]);
    for (const resolverUrl of ["https://resolver.example", undefined]) {
      const { status, stdout, stderr, out } = await build(dir, resolverUrl);
      assert.equal(status, 0, stdout + stderr);
      assert.deepEqual([...routedIn(out).keys()], []);
      // Every shard of the route table is a pair, empty ones too: one a build no longer writes routes nothing.
      const routed = kvPairs(`${out}-kv`).filter((pair) => !pair.key.startsWith("um:"));
      assert.equal(routed.length, 4096);
      for (const { key, value } of routed) {
        assert.match(key, /^routes\/[0-9a-f]{3}\.json$/);
        assert.deepEqual(JSON.parse(Buffer.from(value, "base64").toString()), { format: 1, routes: {} });
      }
      assert.deepEqual(await served(out, "/.well-known/did.json"), { status: 400 });
    }
  });

  it("for a key on UM_RESOLVER_URL's host, compared as URL hosts are: letter case, the scheme's own port", async () => {
    const dir = content(["did:web:resolver.example#k", "did:web:resolver.example%3A8443#k"]);
    for (const resolverUrl of ["https://RESOLVER.example:443/", "https://resolver.example"]) {
      const { status, stdout, stderr, out } = await build(dir, resolverUrl);
      assert.equal(status, 0, stdout + stderr);
      assert.deepEqual(await served(out, "/.well-known/did.json"), { status: 200, id: "did:web:resolver.example" });
    }
    const withPort = await build(dir, "https://resolver.example:8443");
    assert.deepEqual(await served(withPort.out, "/.well-known/did.json"), {
      status: 200,
      id: "did:web:resolver.example%3A8443",
    });
  });

  it(
    "under UM_RESOLVER_URL's base path, at the path the resolver is asked; one outside it is a warning, " +
      "and is not published",
    async () => {
      const dir = content([
        "did:web:resolver.example:um#k",
        "did:web:resolver.example:um:team#k",
        "did:web:resolver.example#k",
        "did:web:resolver.example:umbrella#k",
      ]);
      const resolverUrl = "https://resolver.example/um";
      const { status, keys } = await checkJson(dir, resolverUrl);
      assert.equal(status, 0);
      assert.deepEqual(
        keys.warnings.map((w) => [w.rule, w.line]),
        [
          ["keys/did-web-outside-resolver", 5],
          ["keys/did-web-outside-resolver", 6],
        ],
      );
      const { out } = await build(dir, resolverUrl);
      assert.deepEqual(await served(out, "/did.json"), { status: 200, id: "did:web:resolver.example:um" });
      assert.deepEqual(await served(out, "/team/did.json"), { status: 200, id: "did:web:resolver.example:um:team" });
      assert.deepEqual(await served(out, "/.well-known/did.json"), { status: 400 });
    },
  );

  it("serves one whose path is under the status endpoint's prefix, as any other path ending /did.json", async () => {
    // The edge has always looked a path ending /did.json up first, there as anywhere: the status of UMID `did.json`
    // is answered only where no document is published.
    const did = "did:web:resolver.example:.well-known:manifest-resolver:status";
    const { status, stdout, stderr, out } = await build(content([`${did}#k`]), "https://resolver.example");
    assert.equal(status, 0, stdout + stderr);
    const path = "/.well-known/manifest-resolver/status/did.json";
    assert.deepEqual(await served(out, path), { status: 200, id: did });
    assert.deepEqual(await served(out, "/.well-known/manifest-resolver/status/other.json"), { status: 404 });
  });

  it("refuses two DIDs whose documents are at one URL: a document has one id", async () => {
    const dir = content(["did:web:resolver.example#a", "did:web:RESOLVER.example#b"]);
    const { status, keys } = await checkJson(dir, "https://resolver.example");
    assert.equal(status, 1);
    assert.deepEqual(
      keys.errors.map((e) => [e.rule, e.line]),
      [["keys/did-web-clash", 4]],
    );
    const refused = await build(dir, "https://resolver.example");
    assert.equal(refused.status, 1);
    assert.equal(existsSync(refused.out), false);
  });

  // Issue 37, defect 3's sibling: check passed a document larger than every client reads, which refuses it whole.
  it("refuses a document the client would refuse: more keys under one DID than its document may hold", async () => {
    const many = Array.from({ length: 400 }, (_, i) => `did:web:resolver.example#k${i}`);
    const { status, keys } = await checkJson(content(many), "https://resolver.example");
    assert.equal(status, 1);
    assert.deepEqual(
      keys.errors.map((e) => e.rule),
      ["keys/did-web-unreadable"],
    );
    const fits = await checkJson(content(many.slice(0, 100)), "https://resolver.example");
    assert.equal(fits.status, 0, JSON.stringify(fits.keys));
  });

  it("refuses, as a usage error, a UM_RESOLVER_URL whose host cannot be parsed: it decides what is published", async () => {
    const dir = content(["did:web:resolver.example#k"]);
    const bad = await runCliInProcess(["check", "--offline", "--content", dir], scratch, {
      UM_RESOLVER_URL: "https://exa%mple",
    });
    assertUsageError(bad, "UM_RESOLVER_URL", '"https://exa%mple"');
  });

  it("no longer served from Workers KV once removed, though bulk uploads never delete a pair", async () => {
    const loaded = new Map<string, KvPair>();
    const kv = new KvRecords().reading({
      async getWithMetadata<M>(key: string) {
        const pair = loaded.get(key);
        if (pair === undefined) return { value: null, metadata: null };
        const bytes = pair.base64 === true ? Buffer.from(pair.value, "base64") : Buffer.from(pair.value);
        return { value: new Uint8Array(bytes).buffer as ArrayBuffer, metadata: (pair.metadata ?? null) as M };
      },
    });
    const team = "did:web:resolver.example:team";
    for (const keyRefs of [["did:web:resolver.example#k", `${team}#k`], ["did:web:resolver.example#k"]]) {
      const { status, stdout, stderr, out } = await build(content(keyRefs), "https://resolver.example");
      assert.equal(status, 0, stdout + stderr);
      // `wrangler kv bulk put` of every file, over what the namespace held.
      for (const pair of kvPairs(`${out}-kv`)) loaded.set(pair.key, pair);
    }
    const got = await answer(
      { method: "GET", url: "https://resolver.example/team/did.json", headers: new Headers() },
      kv,
    );
    assert.equal(got.status, 400, "a did.json with no document is a UMID path");
  });

  it("a warm build, in place, writes and removes the documents and their KV pairs as a cold build does", async () => {
    const warm = join(scratch, "warm");
    for (const keyRefs of [
      [],
      ["did:web:resolver.example#k"],
      ["did:web:resolver.example#k", "did:web:resolver.example#j"],
      [],
    ]) {
      const dir = content(keyRefs);
      const done = await build(dir, "https://resolver.example", warm);
      assert.equal(done.status, 0, done.stdout + done.stderr);
      const cold = await build(dir, "https://resolver.example");
      for (const suffix of ["", "-kv"])
        assert.deepEqual(fileDigests(`${warm}${suffix}`), fileDigests(`${cold.out}${suffix}`), `${keyRefs}${suffix}`);
      assert.equal(routedIn(warm).has("/.well-known/did.json"), keyRefs.length > 0);
    }
  });
});
