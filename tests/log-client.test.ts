/**
 * `resolve --log-key` (issue 26, section 5): a relying party proves each answer against the resolver's transparency
 * log. Content is logged twice and built by our own commands (a body replaced, a UMID suspended, one revoked, one
 * redirected), served with its log by `serve`, behind a proxy that can rewrite whatever it likes and serve another
 * log (an older snapshot, a tampered file) from a log server: the attacks are its rewrites. An older body,
 * validly signed, behind fresh headers is accepted without the log and refused with it; so are a status rolled back,
 * a revocation rolled back, a redirect moved, a UMID never logged, a tampered bucket or bundle, another key; and with
 * --http-cache (its memory), an older snapshot of the whole log replayed, or a log rewritten from scratch with the same key.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { utf8 } from "../core/base64url.ts";
import { resolve, type TrustMemory, trustMemory } from "../core/client/index.ts";
import { canonicalize } from "../core/crypto/jcs.ts";
import { bucketOf, bucketPath, parseLatestLine } from "../core/tlog/latest-map.ts";
import { formatVerifierKey } from "../core/tlog/note-keys.ts";
import { parseCheckpoint } from "../core/tlog/checkpoint.ts";
import { LOG_PREFIX, statusPath, umidPath } from "../core/umid-path.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { type LogServer, publishedLogFiles, serveLogFiles } from "./support/log-server.ts";
import { type ProxyAnswer, type StartedProxy, startProxy } from "./support/proxy.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-log-client-"));
const key = newKey();
const logKeyFile = join(scratch, "log.pem");
writeFileSync(logKeyFile, newKey().export({ format: "pem", type: "pkcs8" }));
const ORIGIN = "resolver.example/.well-known/manifest-resolver/log";
const NOW = "2026-11-01T00:00:00Z";

const A = "urn:log:a"; // a body replaced in the second round
const B = "urn:log:b"; // suspended in the second round, with a statusRef
const R = "urn:log:r"; // revoked in the second round
const M = "urn:log:m"; // redirected, to the proxy's /moved
const X = "urn:log:x"; // never logged

type Files = Map<string, Uint8Array>;
type Rewrite = (path: string, answer: ProxyAnswer) => void;

/**
 * What the proxy serves of its own: another log than the build's (`log`, from the log server), bodies for some paths,
 * and its rewrites of the resolver's answers.
 */
const world: { log?: Files; bodies: Map<string, Uint8Array>; rewrite?: Rewrite } = { bodies: new Map() };
let resolver: Started;
let proxy: StartedProxy;
let logServer: LogServer;
let base: string;
let rounds: { first: Files; second: Files; rewritten: Files };
let oldBodies: Map<string, Uint8Array>;
let verifier: string;

const manifestOf = (umid: string, extra: Record<string, unknown> = {}) => signed(manifestFor(umid, extra), key);
/** The body the resolver serves for a manifest: its JCS canonical form. */
const bodyOf = (manifest: Record<string, unknown>) => utf8(canonicalize(manifest));

async function logged(content: string): Promise<Files> {
  const run = await runCliInProcess(["log", "--key", logKeyFile, "--origin", ORIGIN, "--content", content], scratch);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return publishedLogFiles(join(content, "_log"));
}

function writeContent(dir: string, files: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "_keys.json"), JSON.stringify(pinning(key)));
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
}

before(async () => {
  const proxyPort = await freePort();
  base = `http://127.0.0.1:${proxyPort}`;
  const withStatusRef = (manifest: Record<string, unknown>) => ({
    ...manifest,
    signature: { ...(manifest.signature as object), statusRef: base + statusPath(B) },
  });
  const firstA = manifestOf(A);
  const firstR = manifestOf(R);
  oldBodies = new Map([
    [A, bodyOf(firstA)],
    [R, bodyOf(firstR)],
  ]);
  const content = join(scratch, "content");
  const redirect = { umid: M, location: `${base}/moved` };
  writeContent(content, {
    "a.json": firstA,
    "b.json": withStatusRef(manifestOf(B)),
    "r.json": firstR,
    "_routes.json": { redirects: [redirect] },
  });
  const first = await logged(content);
  writeContent(content, {
    "a.json": manifestOf(A, { issuedAt: "2026-02-01T00:00:00Z" }),
    "_routes.json": {
      redirects: [redirect],
      revoked: [{ umid: R, revokedAt: "2026-06-01T00:00:00Z", reason: "key lost" }],
      suspended: [{ umid: B, suspendedAt: "2026-05-01T00:00:00Z", reason: "under review" }],
    },
  });
  const second = await logged(content);
  verifier = readFileSync(join(content, "_log", "verifier"), "utf8").trim();

  // The same key, a log made again from nothing over more UMIDs: larger than the second, and not its extension.
  const again = join(scratch, "again");
  cpSync(content, again, { recursive: true });
  rmSync(join(again, "_log"), { recursive: true });
  writeContent(again, Object.fromEntries(["1", "2", "3", "4"].map((n) => [`z${n}.json`, manifestOf(`urn:log:z${n}`)])));
  const rewritten = await logged(again);
  rounds = { first, second, rewritten };
  assert.ok(parseCheckpoint(checkpointText(rewritten))!.size > parseCheckpoint(checkpointText(second))!.size);

  const dist = join(scratch, "dist");
  const built = await runCliInProcess(
    ["build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`],
    scratch,
    {
      UM_RESOLVER_URL: base,
    },
  );
  assert.equal(built.status, 0, built.stdout + built.stderr);
  const servePort = await freePort();
  resolver = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", String(servePort)]);
  logServer = await serveLogFiles(new Map());
  const upstreamOf = (path: string) =>
    path.startsWith(`${LOG_PREFIX}/`) && world.log !== undefined ? logServer.url : `http://127.0.0.1:${servePort}`;
  proxy = await startProxy(proxyPort, upstreamOf, ownAnswer, (path, answer) => world.rewrite?.(path, answer));
  writeFileSync(join(scratch, "keys.json"), JSON.stringify(pinning(key)));
});

after(async () => {
  await resolver?.stop();
  await proxy?.close();
  await logServer?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

let etags = 0;
/** The proxy's own answer to `path`: a body of its own behind fresh headers. */
function ownAnswer(path: string): ProxyAnswer | undefined {
  const own = world.bodies.get(path);
  if (own === undefined) return undefined;
  const headers = new Headers({
    "Content-Type": "application/ld+json",
    ETag: `"fresh-${++etags}"`,
    "Cache-Control": "public, max-age=60",
    "X-UM-Resolver-Contract": "0.4",
  });
  return { status: 200, headers, body: own };
}

const checkpointText = (files: Files) => {
  const text = Buffer.from(files.get("checkpoint")!).toString("utf8");
  return `${text.split("\n\n")[0]}\n`;
};

/** Serves `log` (none: the build's, by `serve`), the proxy's `bodies` and `rewrite` for the next resolutions. */
function serving(log?: Files, bodies: [string, Uint8Array][] = [], rewrite?: Rewrite): void {
  if (log === undefined) delete world.log;
  else world.log = log;
  logServer.files = new Map(log);
  world.bodies = new Map(bodies);
  if (rewrite === undefined) delete world.rewrite;
  else world.rewrite = rewrite;
}

interface Resolved {
  status: number | null;
  stderr: string;
  receipt: { outcome: string; revocationStatus: string; warnings: { code: string; rule?: string; message: string }[] };
  /** The rules of the receipt's warnings. */
  rules: (string | undefined)[];
}

async function resolveCli(umid: string, ...more: string[]): Promise<Resolved> {
  const run = await runCliInProcess(
    ["resolve", base, umid, "--now", NOW, "--offline", "--keys", join(scratch, "keys.json"), "--json", ...more],
    scratch,
  );
  assert.notEqual(run.stdout, "", run.stderr);
  const receipt = JSON.parse(run.stdout) as Resolved["receipt"];
  return { status: run.status, stderr: run.stderr, receipt, rules: receipt.warnings.map((w) => w.rule) };
}

const withLog = (...more: string[]) => ["--log-key", verifier, ...more];

describe("resolve --log-key: answers the log proves", () => {
  before(() => serving());

  it("accepts each UMID's latest state: a body, a suspension its status agrees with, a 410, a redirect", async () => {
    const active = await resolveCli(A, ...withLog());
    assert.deepEqual([active.status, active.receipt.outcome, active.rules], [0, "accepted", []], active.stderr);
    const suspended = await resolveCli(B, ...withLog());
    assert.deepEqual(
      [suspended.status, suspended.receipt.outcome, suspended.receipt.revocationStatus, suspended.rules],
      [0, "accepted-with-warnings", "suspended", [undefined]],
    );
    const revoked = await resolveCli(R, ...withLog());
    assert.deepEqual([revoked.status, revoked.receipt.revocationStatus, revoked.rules], [1, "revoked", [undefined]]);
    // The redirect's target is the proxy's own body: a manifest of M.
    serving(undefined, [["/moved", bodyOf(manifestOf(M))]]);
    const moved = await resolveCli(M, ...withLog());
    assert.deepEqual([moved.status, moved.receipt.outcome, moved.rules], [0, "accepted", []], moved.stderr);
    serving();
  });

  it("takes the key from a file: the publisher's content/_log/verifier", async () => {
    const file = join(scratch, "content", "_log", "verifier");
    const active = await resolveCli(A, "--log-key", file);
    assert.deepEqual([active.status, active.receipt.outcome], [0, "accepted"]);
  });

  it("refuses every answer with another key than the log's: log/unproven", async () => {
    const raw = Buffer.from(createPublicKey(newKey()).export({ format: "jwk" }).x!, "base64url");
    const refused = await resolveCli(A, "--log-key", formatVerifierKey(ORIGIN, raw));
    assert.deepEqual([refused.status, refused.receipt.outcome, refused.rules], [1, "rejected", ["log/unproven"]]);
    assert.match(refused.receipt.warnings[0]!.message, /checkpoint does not verify .*no-known-signature/);
  });
});

describe("resolve --log-key: the attacks of a party on the path, which rewrites what it likes", () => {
  const path = (umid: string) => umidPath(umid);

  it("THE ATTACK: an older body, validly signed, fresh headers: accepted without log, not-latest with", async () => {
    serving(undefined, [[path(A), oldBodies.get(A)!]]);
    const fooled = await resolveCli(A);
    assert.deepEqual([fooled.status, fooled.receipt.outcome], [0, "accepted"]);
    const cache = join(scratch, "cache-attack");
    const refused = await resolveCli(A, ...withLog("--http-cache", cache));
    assert.deepEqual([refused.status, refused.receipt.outcome, refused.rules], [1, "rejected", ["log/not-latest"]]);
    assert.match(refused.receipt.warnings[0]!.message, /serves a body of SHA-256 .*says active, a body of SHA-256/);
    // A body refused is not kept; the checkpoint seen is, in the memory apart from the responses.
    assert.deepEqual(readdirSync(cache), ["memory"]);
    const memory = join(cache, "memory");
    const kept = readdirSync(memory).map((file) => JSON.parse(readFileSync(join(memory, file), "utf8")).key);
    assert.deepEqual(kept, [`checkpoint ${verifier}`]);
  });

  it("a revocation rolled back (the body before it, served 200, its listed status made active): log/not-latest", async () => {
    // The resolver's status endpoint, asked for a manifest with no statusRef, still says revoked: rewritten too.
    serving(undefined, [[path(R), oldBodies.get(R)!]], (at, answered) => {
      if (at !== statusPath(R)) return;
      const document = JSON.parse(Buffer.from(answered.body).toString("utf8"));
      answered.body = utf8(JSON.stringify({ ...document, status: "active", cursor: "9999999999999999" }));
      answered.headers.delete("etag");
    });
    assert.equal((await resolveCli(R)).status, 0);
    const refused = await resolveCli(R, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/not-latest"]]);
    assert.match(refused.receipt.warnings[0]!.message, /says revoked/);
  });

  it("a suspension rolled back at the status endpoint (its answer made active): log/not-latest", async () => {
    serving(undefined, [], (at, answered) => {
      if (at !== statusPath(B)) return;
      const document = JSON.parse(Buffer.from(answered.body).toString("utf8"));
      answered.body = utf8(JSON.stringify({ ...document, status: "active", cursor: "9999999999999999" }));
      answered.headers.delete("etag");
    });
    const fooled = await resolveCli(B);
    assert.deepEqual([fooled.status, fooled.receipt.revocationStatus], [0, "active"]);
    const refused = await resolveCli(B, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/not-latest"]]);
    assert.match(refused.receipt.warnings[0]!.message, /its status endpoint answering active.*says suspended/);
  });

  it("a redirect sent elsewhere, to a valid manifest of the UMID: log/not-latest", async () => {
    serving(undefined, [["/elsewhere", bodyOf(manifestOf(M))]], (at, answered) => {
      if (at === path(M)) answered.headers.set("location", `${base}/elsewhere`);
    });
    assert.equal((await resolveCli(M)).status, 0);
    const refused = await resolveCli(M, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/not-latest"]]);
    assert.match(refused.receipt.warnings[0]!.message, /redirects to ".*\/elsewhere".*says redirected to ".*\/moved"/);
  });

  it("a 410 for a UMID the log says is active: refused, and not remembered as revoked", async () => {
    serving(undefined, [], (at, answered) => {
      if (at === path(A)) Object.assign(answered, { status: 410, body: new Uint8Array() });
    });
    const cache = join(scratch, "cache-gone");
    const refused = await resolveCli(A, ...withLog("--http-cache", cache));
    assert.deepEqual([refused.status, refused.rules], [1, ["log/not-latest"]]);
    serving();
    const after = await resolveCli(A, ...withLog("--http-cache", cache));
    assert.deepEqual([after.status, after.receipt.outcome], [0, "accepted"]);
  });

  it("a UMID the log has no entry for, served a valid manifest: log/not-latest", async () => {
    serving(undefined, [[path(X), bodyOf(manifestOf(X))]]);
    assert.equal((await resolveCli(X)).status, 0);
    const refused = await resolveCli(X, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/not-latest"]]);
    assert.match(refused.receipt.warnings[0]!.message, /the log has no entry for "urn:log:x"/);
  });

  it("a bucket that names the older entry as the latest: log/unproven", async () => {
    const { size } = parseCheckpoint(checkpointText(rounds.second))!;
    const { bits } = parseLatestLine(parseCheckpoint(checkpointText(rounds.second))!.extensions)!;
    const file = bucketPath(size, bucketOf(A, bits));
    const bucket = JSON.parse(Buffer.from(rounds.second.get(file)!).toString("utf8"));
    bucket.latest[A] = 0; // A's first entry, which the older body matches
    serving(new Map([...rounds.second, [file, utf8(canonicalize(bucket))]]), [[path(A), oldBodies.get(A)!]]);
    const refused = await resolveCli(A, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unproven"]]);
    assert.match(refused.receipt.warnings[0]!.message, /is not the bucket the checkpoint commits to/);
  });

  it("a bundle whose latest entry for the UMID is made the older body's: log/unproven", async () => {
    const [bundlePath, bundle] = [...rounds.second].find(([file]) => file.startsWith("tile/entries/"))!;
    const text = Buffer.from(bundle).toString("latin1");
    const entries = [...text.matchAll(/\{"sha256":"([^"]+)","state":"active","umid":"urn:log:a"\}/g)];
    assert.equal(entries.length, 2);
    const tampered = text.replace(entries[1]![1]!, entries[0]![1]!);
    serving(new Map([...rounds.second, [bundlePath, Buffer.from(tampered, "latin1")]]), [[path(A), oldBodies.get(A)!]]);
    const refused = await resolveCli(A, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unproven"]]);
    assert.match(refused.receipt.warnings[0]!.message, /is not in the checkpoint's tree/);
  });

  it("no log served: log/unproven", async () => {
    serving(new Map());
    const refused = await resolveCli(A, ...withLog());
    assert.deepEqual([refused.status, refused.rules], [1, ["log/unproven"]]);
    assert.match(refused.receipt.warnings[0]!.message, /log\/checkpoint: not found/);
  });
});

describe("resolve --log-key --http-cache: the log only grows", () => {
  it("an older snapshot of the whole log and body: accepted if never saw newer, inconsistent if it did", async () => {
    const cache = join(scratch, "cache-replay");
    serving();
    assert.equal((await resolveCli(A, ...withLog("--http-cache", cache))).status, 0);
    serving(rounds.first, [[umidPath(A), oldBodies.get(A)!]]);
    const fooled = await resolveCli(A, ...withLog("--http-cache", join(scratch, "cache-new")));
    assert.deepEqual([fooled.status, fooled.receipt.outcome], [0, "accepted"]);
    const refused = await resolveCli(A, ...withLog("--http-cache", cache));
    assert.deepEqual([refused.status, refused.rules], [1, ["log/inconsistent"]]);
    assert.match(
      refused.receipt.warnings[0]!.message,
      /\(size 4\) is smaller than the checkpoint this client saw before \(size 7\)/,
    );
  });

  it("a log rewritten from scratch with the same key, larger: log/inconsistent, not extending the seen", async () => {
    const cache = join(scratch, "cache-rewritten");
    serving();
    assert.equal((await resolveCli(A, ...withLog("--http-cache", cache))).status, 0);
    serving(rounds.rewritten);
    assert.equal((await resolveCli(A, ...withLog())).status, 0);
    const refused = await resolveCli(A, ...withLog("--http-cache", cache));
    assert.deepEqual([refused.status, refused.rules], [1, ["log/inconsistent"]]);
    assert.match(refused.receipt.warnings[0]!.message, /does not extend the checkpoint this client saw before/);
    // The checkpoint seen is kept: the newer one, once proven, replaces it; the rewritten one never did.
    serving();
    assert.equal((await resolveCli(A, ...withLog("--http-cache", cache))).status, 0);
  });

  it("a fork larger than the checkpoint another resolution remembered meanwhile: log/inconsistent", async () => {
    // Another resolution, sharing the memory, remembers the second round's checkpoint while this one proves its own:
    // this one is served a rewritten log, which must not replace it unproven (a split view shown to two calls).
    const inner = trustMemory();
    let reads = 0;
    const racing: TrustMemory = {
      ...inner,
      recall: async (key) => {
        const record = await inner.recall(key);
        if (key.startsWith("checkpoint ") && reads++ === 0) {
          const note = Buffer.from(rounds.second.get("checkpoint")!).toString("utf8");
          await inner.keep(key, { kind: "checkpoint", note, url: `${base}${LOG_PREFIX}/checkpoint`, storedAt: 0 });
        }
        return record;
      },
    };
    serving(rounds.rewritten);
    const resolved = await resolve(base, A, {
      logKey: verifier,
      memory: racing,
      offline: true,
      keys: pinning(key),
      context: { now: NOW },
    });
    assert.ok("receipt" in resolved, JSON.stringify(resolved));
    assert.deepEqual(
      resolved.receipt.warnings.map((w) => w.rule),
      ["log/inconsistent"],
    );
    const kept = await inner.recall(`checkpoint ${verifier}`);
    assert.equal(
      kept?.kind === "checkpoint" && kept.note,
      Buffer.from(rounds.second.get("checkpoint")!).toString("utf8"),
    );
  });

  it("a checkpoint that extends the one seen is accepted, and remembered in its place", async () => {
    const cache = join(scratch, "cache-grows");
    serving(rounds.first, [[umidPath(A), oldBodies.get(A)!]]);
    assert.equal((await resolveCli(A, ...withLog("--http-cache", cache))).status, 0);
    serving();
    assert.equal((await resolveCli(A, ...withLog("--http-cache", cache))).status, 0);
    serving(rounds.first, [[umidPath(A), oldBodies.get(A)!]]);
    assert.deepEqual((await resolveCli(A, ...withLog("--http-cache", cache))).rules, ["log/inconsistent"]);
  });
});

describe("resolve --log-key, usage", () => {
  it("the library: a logKey that is no verifier key is a TypeError, before any request", async () => {
    let requests = 0;
    const counting = (url: string, init: RequestInit) => {
      requests += 1;
      return fetch(url, init);
    };
    await assert.rejects(resolve(base, A, { logKey: "resolver.example+00000000+AAAA", fetch: counting }), TypeError);
    assert.equal(requests, 0);
  });

  it("is a usage error when VKEY is neither a verifier key nor a file holding one", async () => {
    const run = await runCliInProcess(["resolve", base, A, "--log-key", join(scratch, "keys.json")], scratch);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /--log-key .*keys\.json: the file holds no signed-note verifier key/);
    const missing = await runCliInProcess(["resolve", base, A, "--log-key", "nothing+here"], scratch);
    assert.equal(missing.status, 2, missing.stderr);
    assert.match(
      missing.stderr,
      /--log-key nothing\+here: neither a verifier key .* nor a file that can be read \(ENOENT\)/,
    );
  });
});
