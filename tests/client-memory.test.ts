/**
 * The client's memory (issue 37, section A): what a relying party's safety rests on (a revocation seen, the largest
 * checkpoint of a log, a revocation a log proved) is kept apart from the HTTP cache, bounded by a count, and never
 * evicted by traffic; a second signed view of one tree is refused; a log that records a UMID revived after its
 * revocation is refused. The resolver and its log are answers of a fetch given to `resolve`, built here: logs are
 * written entry by entry, as a key holder who signs what he likes would.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBase64url, utf8 } from "../core/base64url.ts";
import {
  type Fetch,
  memoryCache,
  type Remembered,
  type Resolution,
  type ResolveOptions,
  resolve,
  type TrustMemory,
  trustMemory,
} from "../core/client/index.ts";
import { canonicalize } from "../core/crypto/jcs.ts";
import { appendEntries } from "../core/tlog/append.ts";
import { signCheckpoint } from "../core/tlog/checkpoint.ts";
import { entryBundle } from "../core/tlog/entry-bundle.ts";
import { bucketFile, bucketPath, formatLatestLine, latestMap } from "../core/tlog/latest-map.ts";
import { formatLogEntry, type LogEntry } from "../core/tlog/log-entry.ts";
import { formatVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../core/tlog/note-signature.ts";
import { LOG_PREFIX, umidPath } from "../core/umid-path.ts";
import { fileCache } from "../scripts/client/file-cache.ts";
import { fileTrustMemory } from "../scripts/client/file-trust-memory.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";

const BASE = "https://resolver.example";
const MIRROR = "https://mirror.example";
const NOW = "2026-11-01T00:00:00Z";
const ORIGIN = "resolver.example/.well-known/manifest-resolver/log";
const key = newKey();
const signer = (await ed25519Signer({ name: ORIGIN, seed: randomBytes(32) }))!;
const verifier = formatVerifierKey(ORIGIN, signer.publicKey);
const scratch = mkdtempSync(join(tmpdir(), "um-client-memory-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

type Files = Map<string, Uint8Array>;

/** A body the resolver serves for `umid`: a manifest signed with the pinned key, in its JCS form. */
const bodyOf = (umid: string, extra: Record<string, unknown> = {}) =>
  utf8(canonicalize(signed(manifestFor(umid, extra), key)));
const digestOf = (body: Uint8Array) => encodeBase64url(sha256(body));
const active = (umid: string, body: Uint8Array): LogEntry => ({ umid, state: "active", sha256: digestOf(body) });
const revoked = (umid: string): LogEntry => ({ umid, state: "revoked" });

/**
 * The files a resolver serves of a log of `entries`, by path under the log's prefix, its checkpoint signed by
 * `by`; `mapOf`: the UMIDs whose latest map the checkpoint commits to (default: the entries', as a log makes it).
 */
async function logOf(entries: LogEntry[], mapOf = entries.map((e) => e.umid), by: NoteSigner = signer): Promise<Files> {
  const empty = { read: async () => undefined };
  const { size, rootHash, files } = await appendEntries(empty, 0, entries.map(formatLogEntry));
  const map = await latestMap(mapOf);
  for (let bucket = 0; bucket < map.buckets.length; bucket++)
    files.set(bucketPath(size, bucket), await bucketFile(map, bucket));
  const note = await signCheckpoint({ origin: ORIGIN, size, rootHash, extensions: [formatLatestLine(map)] }, by);
  files.set("checkpoint", utf8(note));
  return files;
}

/** What the resolvers answer: a log, and per UMID a body or a status (410). */
const world: { log: Files; answers: Map<string, Uint8Array | number> } = { log: new Map(), answers: new Map() };

const serving: Fetch = async (url) => {
  const { origin, pathname } = new URL(url);
  if (origin !== BASE && origin !== MIRROR) return new Response(null, { status: 404 });
  if (pathname.startsWith(`${LOG_PREFIX}/`)) {
    const file = world.log.get(pathname.slice(LOG_PREFIX.length + 1));
    return file === undefined ? new Response(null, { status: 404 }) : new Response(file);
  }
  const answer = [...world.answers].find(([umid]) => umidPath(umid) === pathname)?.[1];
  if (answer === undefined) return new Response(null, { status: 404 });
  if (typeof answer === "number") return new Response(null, { status: answer });
  return new Response(answer, { headers: { "content-type": "application/ld+json" } });
};

const options = (more: ResolveOptions = {}): ResolveOptions => ({
  fetch: serving,
  offline: true,
  keys: pinning(key),
  context: { now: NOW },
  ...more,
});

function receiptOf(result: Resolution) {
  assert.ok("receipt" in result, JSON.stringify(result));
  return result.receipt;
}
const rulesOf = (result: Resolution) => receiptOf(result).warnings.map((w) => w.rule);

/**
 * About `megabytes` MB of answers of other UMIDs through `options`' cache: bodies of a megabyte that merely carry the
 * asked-for @id, which a cache keeps before any check, as a hostile resolver would serve them.
 */
async function traffic(megabytes: number, more: ResolveOptions): Promise<void> {
  const pad = "x".repeat(1_000_000);
  for (let i = 0; i < megabytes; i++) {
    const umid = `urn:junk:${i}`;
    world.answers.set(umid, utf8(JSON.stringify({ "@id": umid, pad })));
    receiptOf(await resolve(BASE, umid, options(more)));
    world.answers.delete(umid);
  }
}

describe("the client's memory, apart from its HTTP cache", () => {
  it("after 100 MB of other answers through the same cache, refuses the rollback and keeps the revocation", async () => {
    const [A, R] = ["urn:mem:a", "urn:mem:r"];
    const [a1, a2] = [bodyOf(A), bodyOf(A, { issuedAt: "2026-02-01T00:00:00Z" })];
    const cache = memoryCache();
    // The log grows to A's second body; R is answered 410, and remembered revoked.
    world.log = await logOf([active(A, a1), active(A, a2)]);
    world.answers = new Map<string, Uint8Array | number>([
      [A, a2],
      [R, 410],
    ]);
    assert.equal(receiptOf(await resolve(BASE, A, options({ cache, logKey: verifier }))).outcome, "accepted");
    assert.equal(receiptOf(await resolve(BASE, R, options({ cache }))).revocationStatus, "revoked");

    await traffic(100, { cache });

    // The log's older snapshot replayed, with A's older body; R's manifest served again.
    world.log = await logOf([active(A, a1)]);
    world.answers = new Map([
      [A, a1],
      [R, bodyOf(R)],
    ]);
    assert.deepEqual(rulesOf(await resolve(BASE, A, options({ cache, logKey: verifier }))), ["log/inconsistent"]);
    const revived = receiptOf(await resolve(BASE, R, options({ cache })));
    assert.deepEqual(
      [revived.revocationStatus, revived.warnings.map((w) => w.rule)],
      ["revoked", ["status/revocation-contradicted"]],
    );
  });

  it("a memory given apart is the one used: a cache alone, another call, remembers nothing of it", async () => {
    const R = "urn:mem:apart";
    const memory = trustMemory();
    world.answers = new Map([[R, 410]]);
    receiptOf(await resolve(BASE, R, options({ memory })));
    world.answers = new Map([[R, bodyOf(R)]]);
    assert.equal(receiptOf(await resolve(BASE, R, options({ memory }))).revocationStatus, "revoked");
    assert.equal(receiptOf(await resolve(BASE, R, options({ cache: memoryCache() }))).revocationStatus, "unchecked");
  });
});

/** The memories under test: in this process, and the CLI's files (a new folder each). */
const memories: [string, (bounds?: { umids: number; logs: number }) => TrustMemory][] = [
  ["trustMemory", (bounds) => trustMemory(bounds)],
  ["fileTrustMemory", (bounds) => fileTrustMemory(mkdtempSync(join(scratch, "memory-")), bounds)],
];

const status = (kind: "revoked" | "suspended", storedAt: number): Remembered => ({
  kind,
  url: "https://r.example/x",
  storedAt,
});
const checkpoint = (note: string): Remembered => ({
  kind: "checkpoint",
  note,
  url: "https://r.example/c",
  storedAt: 0,
});

for (const [name, make] of memories) {
  describe(`${name}: bounded by a count, and never forgetting a revocation`, () => {
    it("a new revocation takes the oldest suspension's place; then, full of revocations, keeps nothing new", async () => {
      const memory = make({ umids: 3, logs: 1 });
      assert.equal(await memory.keep("s1", status("suspended", 2)), true);
      assert.equal(await memory.keep("s0", status("suspended", 1)), true);
      assert.equal(await memory.keep("r0", status("revoked", 3)), true);
      assert.equal(await memory.keep("r1", status("revoked", 4)), true);
      assert.equal(await memory.recall("s0"), undefined, "the oldest suspension gave way");
      assert.equal((await memory.recall("s1"))?.kind, "suspended");
      assert.equal(await memory.keep("s2", status("suspended", 5)), false, "a suspension displaces nothing");
      assert.equal(await memory.keep("r2", status("revoked", 6)), true);
      assert.equal(await memory.keep("r3", status("revoked", 7)), false, "full of revocations: nothing new");
      for (const kept of ["r0", "r1", "r2"]) assert.equal((await memory.recall(kept))?.kind, "revoked", kept);
      assert.equal(await memory.recall("r3"), undefined);
    });

    it("a revocation stays: neither a suspension kept under its key nor forget undoes it", async () => {
      const memory = make();
      await memory.keep("k", status("suspended", 1));
      await memory.keep("k", status("revoked", 2));
      assert.equal(await memory.keep("k", status("suspended", 3)), true);
      await memory.forget("k");
      assert.deepEqual(await memory.recall("k"), status("revoked", 2));
    });

    it("a suspension is forgotten when it ends; checkpoints are bounded apart, and replaced in place", async () => {
      const memory = make({ umids: 1, logs: 1 });
      await memory.keep("s", status("suspended", 1));
      await memory.forget("s");
      assert.equal(await memory.recall("s"), undefined);
      assert.equal(await memory.keep("r", status("revoked", 1)), true, "the suspension's place is free");
      assert.equal(await memory.keep("log1", checkpoint("one\n")), true);
      assert.equal(await memory.keep("log1", checkpoint("two\n")), true);
      assert.equal(await memory.keep("log2", checkpoint("three\n")), false);
      assert.deepEqual(await memory.recall("log1"), checkpoint("two\n"));
    });
  });
}

describe("fileTrustMemory: the CLI's, in files", () => {
  it("holds one file per key, named by its kind, and a record of another key or kind is nothing", async () => {
    const dir = mkdtempSync(join(scratch, "files-"));
    const memory = fileTrustMemory(dir);
    await memory.keep("k", status("suspended", 1));
    await memory.keep("k", status("revoked", 2));
    assert.deepEqual(
      readdirSync(dir).map((file) => file.replace(/^[0-9a-f]{64}/, "")),
      [".revoked.json"],
    );
    // A record copied under another key's name is nothing there.
    const name = (key: string) => createHash("sha256").update(key).digest("hex");
    copyFileSync(join(dir, `${name("k")}.revoked.json`), join(dir, `${name("other")}.revoked.json`));
    assert.equal(await fileTrustMemory(dir).recall("other"), undefined);
    assert.deepEqual(await fileTrustMemory(dir).recall("k"), status("revoked", 2));
  });

  // Found in review: a suspension's file under another key's name was not the one removed to make room.
  it("makes room by the file it read the oldest suspension from, whatever key that file holds", async () => {
    const dir = mkdtempSync(join(scratch, "files-"));
    const memory = fileTrustMemory(dir, { umids: 2, logs: 1 });
    await memory.keep("old", status("suspended", 1));
    await memory.keep("new", status("suspended", 2));
    const name = (key: string) => createHash("sha256").update(key).digest("hex");
    renameSync(join(dir, `${name("old")}.suspended.json`), join(dir, `${name("elsewhere")}.suspended.json`));
    assert.equal(await memory.keep("r", status("revoked", 3)), true);
    assert.equal(readdirSync(dir).length, 2, "the bound holds");
  });
});

describe("what a 0.1.0 cache remembered, under #status-seen and #checkpoint-seen", () => {
  it("is read into the memory: a revocation seen before the upgrade stays, a checkpoint still binds", async () => {
    const [A, R] = ["urn:legacy:a", "urn:legacy:r"];
    const [a1, a2] = [bodyOf(A), bodyOf(A, { issuedAt: "2026-02-01T00:00:00Z" })];
    const dir = mkdtempSync(join(scratch, "legacy-"));
    // As 0.1.0's `resolve --cache DIR` left it: the entries in DIR's files, under the keys with fragments.
    const old = fileCache(dir);
    await old.set(`${BASE}${umidPath(R)}#status-seen`, {
      url: `${BASE}${umidPath(R)}`,
      body: JSON.stringify({ status: "revoked" }),
      storedAt: 0,
      maxAge: 0,
    });
    const logged = await logOf([active(A, a1), active(A, a2)]);
    await old.set(`${verifier}#checkpoint-seen`, {
      url: `${BASE}${LOG_PREFIX}/checkpoint`,
      body: Buffer.from(logged.get("checkpoint")!).toString("utf8"),
      storedAt: 0,
      maxAge: 0,
    });
    const upgraded = () => ({ cache: fileCache(dir), memory: fileTrustMemory(join(dir, "memory")) });
    world.log = await logOf([active(A, a1)]);
    world.answers = new Map([
      [A, a1],
      [R, bodyOf(R)],
    ]);
    assert.deepEqual(rulesOf(await resolve(BASE, A, options({ ...upgraded(), logKey: verifier }))), [
      "log/inconsistent",
    ]);
    const revived = receiptOf(await resolve(BASE, R, options(upgraded())));
    assert.deepEqual(
      [revived.revocationStatus, revived.warnings.map((w) => w.rule)],
      ["revoked", ["status/revocation-contradicted"]],
    );
    // Kept in the memory from then on: read without the cache, it is there.
    const memory = fileTrustMemory(join(dir, "memory"));
    assert.equal(receiptOf(await resolve(BASE, R, options({ memory }))).revocationStatus, "revoked");
  });
});

describe("a party that makes the client see many UMIDs cannot flush what it remembers", () => {
  // Found in review: what a 0.1.0 cache held was written through to the memory, and a full one said nothing.
  it("a 0.1.0 cache's revocation that a full memory cannot keep is still used, and the memory says it is full", async () => {
    const R = "urn:legacy:full";
    const cache = memoryCache();
    await cache.set(`${BASE}${umidPath(R)}#status-seen`, {
      url: `${BASE}${umidPath(R)}`,
      body: JSON.stringify({ status: "revoked" }),
      storedAt: 0,
      maxAge: 0,
    });
    const memory = trustMemory({ umids: 1, logs: 1 });
    await memory.keep("status elsewhere", status("revoked", 0));
    world.answers = new Map([[R, bodyOf(R)]]);
    const result = await resolve(BASE, R, options({ cache, memory }));
    assert.equal(receiptOf(result).revocationStatus, "revoked");
    assert.match("memoryFailure" in result ? (result.memoryFailure ?? "") : "", /the memory is full/);
  });

  it("a memory full of other revocations and suspensions still holds the first revocation, and says it is full", async () => {
    const R = "urn:mem:first";
    const memory = trustMemory({ umids: 10, logs: 1 });
    world.answers = new Map([[R, 410]]);
    receiptOf(await resolve(BASE, R, options({ memory })));
    let full: string | undefined;
    for (let i = 0; i < 30; i++) {
      const umid = `urn:flood:${i}`;
      world.answers = new Map([[umid, 410]]);
      const result = await resolve(BASE, umid, options({ memory }));
      full ??= "memoryFailure" in result ? result.memoryFailure : undefined;
    }
    assert.match(full ?? "", /the memory is full/);
    world.answers = new Map([[R, bodyOf(R)]]);
    const revived = receiptOf(await resolve(BASE, R, options({ memory })));
    assert.deepEqual(
      [revived.revocationStatus, revived.warnings.map((w) => w.rule)],
      ["revoked", ["status/revocation-contradicted"]],
    );
  });
});

describe("resolve --log-key: one tree, one signed body", () => {
  it("a second checkpoint of the tree seen, with another latest map: log/inconsistent", async () => {
    const A = "urn:view:a";
    const [a1, a2] = [bodyOf(A), bodyOf(A, { issuedAt: "2026-02-01T00:00:00Z" })];
    const entries = [active(A, a1), active(A, a2)];
    const memory = trustMemory();
    world.log = await logOf(entries);
    world.answers = new Map([[A, a2]]);
    assert.equal(receiptOf(await resolve(BASE, A, options({ memory, logKey: verifier }))).outcome, "accepted");
    // The same tree, signed with a latest map in which A's latest entry is its first: A's older body then proves.
    const forked = await logOf(entries, [A, "urn:view:other"]);
    const lying = await latestMap([A]);
    forked.set(bucketPath(2, 0), await bucketFile(lying, 0));
    const note = await signCheckpoint(
      {
        origin: ORIGIN,
        size: 2,
        rootHash: (await appendEntries({ read: async () => undefined }, 0, entries.map(formatLogEntry))).rootHash,
        extensions: [formatLatestLine(lying)],
      },
      signer,
    );
    forked.set("checkpoint", utf8(note));
    world.log = forked;
    world.answers = new Map([[A, a1]]);
    // Without a memory, the second view proves the older body: the attack.
    assert.equal(receiptOf(await resolve(BASE, A, options({ logKey: verifier }))).outcome, "accepted");
    const refused = await resolve(BASE, A, options({ memory, logKey: verifier }));
    assert.deepEqual(rulesOf(refused), ["log/inconsistent"]);
    assert.match(receiptOf(refused).warnings[0]!.message, /two views of one tree/);
  });
});

describe("resolve --log-key: a revocation the log undoes", () => {
  it("a log that records a UMID revoked, then active in the same bundle: log/revocation-undone", async () => {
    const R = "urn:undone:r";
    const body = bodyOf(R);
    world.log = await logOf([active(R, body), revoked(R), active(R, body)]);
    world.answers = new Map([[R, body]]);
    const refused = await resolve(BASE, R, options({ logKey: verifier }));
    assert.deepEqual(rulesOf(refused), ["log/revocation-undone"]);
    assert.match(receiptOf(refused).warnings[0]!.message, /says active, after the log revoked it \(entry 1\)/);
  });

  it("a revocation forged into the bundle, not in the checkpoint's tree, is not believed", async () => {
    const R = "urn:undone:forged";
    const body = bodyOf(R);
    const log = await logOf([active("urn:undone:other", body), active(R, body)]);
    const [path] = [...log.keys()].filter((file) => file.startsWith("tile/entries/"));
    log.set(path!, entryBundle([formatLogEntry(revoked(R)), formatLogEntry(active(R, body))]));
    world.log = log;
    world.answers = new Map([[R, body]]);
    assert.equal(receiptOf(await resolve(BASE, R, options({ logKey: verifier }))).outcome, "accepted");
  });

  it("revived in a later bundle: refused by a client that saw the log revoke it, at any resolver", async () => {
    const R = "urn:undone:later";
    const body = bodyOf(R);
    const memory = trustMemory();
    const history = [active(R, body), revoked(R)];
    world.log = await logOf(history);
    world.answers = new Map([[R, 410]]);
    assert.equal(receiptOf(await resolve(BASE, R, options({ memory, logKey: verifier }))).revocationStatus, "revoked");
    // 256 entries later, in the next bundle, R is active again; a mirror serves it, where this client saw no status.
    const filler = Array.from({ length: 256 }, (_, i) => active(`urn:fill:${i}`, utf8(String(i))));
    world.log = await logOf([...history, ...filler, active(R, body)]);
    world.answers = new Map([[R, body]]);
    assert.equal(receiptOf(await resolve(MIRROR, R, options({ logKey: verifier }))).outcome, "accepted");
    const refused = await resolve(MIRROR, R, options({ memory, logKey: verifier }));
    assert.deepEqual(rulesOf(refused), ["log/revocation-undone"]);
    assert.match(receiptOf(refused).warnings[0]!.message, /after the log revoked it \(as this client saw in /);
  });
});
