/**
 * A resolver whose UMIDs put the lookup page in each of its states (issue 40), for the browser tests: content made
 * and signed here, logged twice, its log's checkpoint cosigned by two witnesses (issue 41), and built by the CLI, served by `serve`'s server behind a proxy (startProxy) that
 * answers what no build publishes (a forged body, an expired one, a body the log has since replaced), a target for
 * its redirects on another origin, a resolver that never answers, and the lookup page from the sources on an origin
 * of its own.
 */
import assert from "node:assert/strict";
import type { KeyObject } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { utf8 } from "../../core/base64url.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { cosign } from "../../core/tlog/cosignature.ts";
import { formatNote, parseNote } from "../../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../../core/tlog/note-signature.ts";
import { umidPath } from "../../core/umid-path.ts";
import { statusRefFor } from "../../core/validate/status-ref.ts";
import type { OutputFile } from "../../scripts/plan/output-file.ts";
import { lookupPageFiles } from "../../scripts/lookup-page-files/files.ts";
import { serveLookupPage } from "../../scripts/lookup-page-files/serve.ts";
import { startServing } from "../../scripts/commands/serve.ts";
import { runCliInProcess } from "./cli-in-process.ts";
import { consentFor, facetOf, manifestFor, newKey, pinning, signed } from "./fixture-content.ts";
import { freePort } from "./http.ts";
import { startProxy } from "./proxy.ts";

/** The UMID of each state, as the resolver answers it. */
export const UMIDS = {
  /** Signed, pinned, active: nothing to say. */
  accepted: "urn:states:accepted",
  /** One facet, consented to for "display": its purpose unverified without one, withheld for another. */
  consented: "urn:states:consented",
  /** Needs Tier 1; the page checks Tier 0. */
  tier1: "urn:states:tier-1",
  /** Altered after signing (served by the proxy: a build refuses it). */
  forged: "urn:states:forged",
  /** Past its expiresAt (served by the proxy: a build refuses it). */
  expired: "urn:states:expired",
  suspended: "urn:states:suspended",
  /** Revoked with a date and a reason: a 410, its status document saying both. */
  revoked: "urn:states:revoked",
  /** A 307 to a target on another origin that lets the page read it. */
  redirected: "urn:states:redirected",
  /** A 307 to a target on another origin that does not (no CORS). */
  movedAway: "urn:states:moved-away",
  /** Published with a body the log has since replaced; the proxy serves the older one, validly signed. */
  rolledBack: "urn:states:rolled-back",
  unknown: "urn:states:nobody",
} as const;

/** The purpose the consent of UMIDS.consented is for. */
export const CONSENTED_PURPOSE = "display";
export const SUSPENSION = { at: "2026-05-01T00:00:00Z", reason: "under review" };
export const REVOCATION = { at: "2026-06-01T00:00:00Z", reason: "key lost" };

export interface LookupStates {
  /** The lookup page, served from the sources: its origin, 127.0.0.1 and a port of its own. */
  page: string;
  /** The resolver the page asks: the proxy in front of `serve`. */
  resolver: string;
  /** The verifier key of the resolver's transparency log (content/_log/verifier). */
  logKey: string;
  /**
   * Log policies of the resolver's log, each a quorum of two witnesses (tlog-policy): `witnessed`, of the two whose
   * cosignatures its checkpoint carries; `oneMissing`, of one of those and WITNESSES.missing, who never cosigned.
   */
  logPolicies: { witnessed: string; oneMissing: string };
  /** A resolver that takes every request and never answers it. */
  silent: string;
  /** Where UMIDS.redirected and UMIDS.movedAway are sent. */
  targets: { redirected: string; movedAway: string };
  /** The key everything here is signed with, under FIXTURE_KEY_REF (chromium.ts's serveFixtureDid confirms it). */
  key: KeyObject;
  stop(): Promise<void>;
}

/** The witnesses' names: two cosign the log's checkpoint, and one does not. */
export const WITNESSES = { cosigning: ["alpha.example", "beta.example"], missing: "gamma.example" } as const;

const CORS = { "Access-Control-Allow-Origin": "*" };
const MANIFEST_TYPE = { "Content-Type": "application/ld+json" };

/** Serves it all; `samples` fill the page's meta manifest-resolver-samples, as `serve` and `dev` do. */
export async function serveLookupStates(samples: { umid: string; label: string }[]): Promise<LookupStates> {
  const scratch = mkdtempSync(join(tmpdir(), "um-lookup-states-"));
  const key = newKey();
  const stops: (() => Promise<unknown>)[] = [async () => rmSync(scratch, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const proxyPort = await freePort();
    const resolver = `http://127.0.0.1:${proxyPort}`;
    const manifestOf = (umid: string, extra: Record<string, unknown> = {}) => signed(manifestFor(umid, extra), key);
    // With its statusRef at the resolver, as `sign` gives it (outside the signing input, EXT-OPT O2.1): the page
    // learns each status from it.
    const published = (umid: string, extra: Record<string, unknown> = {}) => {
      const manifest = manifestOf(umid, extra);
      return { ...manifest, signature: { ...(manifest.signature as object), statusRef: statusRefFor(resolver, umid) } };
    };

    const elsewhere = await listen(redirectTargets([manifestOf(UMIDS.redirected), manifestOf(UMIDS.movedAway)]));
    stops.push(() => close(elsewhere.server));
    // localhost, not 127.0.0.1: another origin than the resolver's and the page's.
    const targets = {
      redirected: `http://localhost:${elsewhere.port}${READABLE}${umidPath(UMIDS.redirected)}`,
      movedAway: `http://localhost:${elsewhere.port}${UNREADABLE}${umidPath(UMIDS.movedAway)}`,
    };
    const silent = await listen(() => {});
    stops.push(() => close(silent.server));

    const content = join(scratch, "content");
    mkdirSync(content);
    const write = (file: string, value: unknown) => writeFileSync(join(content, file), JSON.stringify(value, null, 2));
    write("_keys.json", pinning(key));
    const firstRolledBack = published(UMIDS.rolledBack);
    write("rolled-back.json", firstRolledBack);
    const logKeyFile = join(scratch, "log.pem");
    writeFileSync(logKeyFile, newKey().export({ format: "pem", type: "pkcs8" }));
    const cli = async (...args: string[]) => {
      const run = await runCliInProcess(args, scratch, { UM_RESOLVER_URL: resolver });
      assert.equal(run.status, 0, `${args[0]}: ${run.stdout}${run.stderr}`);
    };
    await cli("log", "--key", logKeyFile, "--content", content);
    // The second round: the rolled-back UMID's body replaced, and everything else published.
    write("rolled-back.json", published(UMIDS.rolledBack, { issuedAt: "2026-02-01T00:00:00Z" }));
    write("accepted.json", published(UMIDS.accepted));
    write(
      "consented.json",
      published(UMIDS.consented, {
        facets: [facetOf("urn:states:facet", { name: "profile" })],
        consents: [consentFor("urn:states:facet", { purpose: CONSENTED_PURPOSE, expiresAt: "2099-01-01T00:00:00Z" })],
      }),
    );
    write("tier-1.json", published(UMIDS.tier1, { requiredTrustTier: 1 }));
    write("suspended.json", published(UMIDS.suspended));
    write("revoked.json", published(UMIDS.revoked));
    write("_routes.json", {
      redirects: [
        { umid: UMIDS.redirected, location: targets.redirected },
        { umid: UMIDS.movedAway, location: targets.movedAway },
      ],
      suspended: [{ umid: UMIDS.suspended, suspendedAt: SUSPENSION.at, reason: SUSPENSION.reason }],
      revoked: [{ umid: UMIDS.revoked, revokedAt: REVOCATION.at, reason: REVOCATION.reason }],
    });
    await cli("log", "--key", logKeyFile, "--content", content);
    const logKey = readFileSync(join(content, "_log", "verifier"), "utf8").trim();
    const logPolicies = await cosignCheckpoint(join(content, "_log", "checkpoint"), logKey);
    const dist = join(scratch, "dist");
    await cli("build", "--content", content, "--out", dist, "--lookup-out", join(scratch, "lookup"));

    // `serve`'s own server, in this process: nothing outside the test can stop it under the browser.
    const served = await startServing({
      dist,
      host: "127.0.0.1",
      port: 0,
      uiPort: undefined,
      standsInFor: "",
      contentDir: content,
    });
    if (typeof served === "string") throw new Error(served);
    stops.push(() => served.stop());
    const own = ownAnswers(
      new Map([
        [umidPath(UMIDS.forged), forgedBody(manifestOf(UMIDS.forged))],
        [
          umidPath(UMIDS.expired),
          bodyOf(manifestOf(UMIDS.expired, { issuedAt: "2025-01-01T00:00:00Z", expiresAt: "2026-02-01T00:00:00Z" })),
        ],
        [umidPath(UMIDS.rolledBack), bodyOf(firstRolledBack)],
      ]),
    );
    const proxy = await startProxy(proxyPort, () => served.url, own);
    stops.push(() => proxy.close());

    const files = await lookupPageFiles(resolver);
    const page = portOf(
      (await serveLookupPage(withMeta(files, "manifest-resolver-samples", JSON.stringify(samples)), "127.0.0.1", 0))
        .server,
    );
    stops.push(() => close(page.server));
    return {
      page: `http://127.0.0.1:${page.port}`,
      resolver,
      logKey,
      logPolicies,
      silent: `http://127.0.0.1:${silent.port}`,
      targets,
      key,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Cosigns the log's checkpoint at `file` by the two cosigning WITNESSES, now, as `log` keeps a witnessed checkpoint,
 * and gives the policies of LookupStates.logPolicies for the log of `logKey`.
 */
async function cosignCheckpoint(file: string, logKey: string): Promise<LookupStates["logPolicies"]> {
  const signer = async (name: string) =>
    (await ed25519Signer({ name, seed: crypto.getRandomValues(new Uint8Array(32)) }, COSIGNATURE_TYPE))!;
  const [alpha, beta] = await Promise.all(WITNESSES.cosigning.map(signer));
  const gamma = await signer(WITNESSES.missing);
  const note = parseNote(readFileSync(file))!;
  const now = Math.floor(Date.now() / 1000);
  const cosignatures = await Promise.all([alpha!, beta!].map((witness) => cosign(note.text, witness, now)));
  writeFileSync(file, formatNote({ text: note.text, signatures: [...note.signatures, ...cosignatures] }));
  const line = (witness: NoteSigner) =>
    `witness ${witness.name} ${formatVerifierKey(witness.name, witness.publicKey, COSIGNATURE_TYPE)}`;
  const policy = (...witnesses: NoteSigner[]) =>
    [
      `log ${logKey}`,
      ...witnesses.map(line),
      `group both all ${witnesses.map((w) => w.name).join(" ")}`,
      "quorum both",
    ].join("\n");
  return { witnessed: policy(alpha!, beta!), oneMissing: policy(alpha!, gamma) };
}

/** The body a resolver serves for a manifest: its JCS canonical form. */
const bodyOf = (manifest: Record<string, unknown>) => utf8(canonicalize(manifest));

/** `manifest` with its subject changed after it was signed. */
const forgedBody = (manifest: Record<string, unknown>) => bodyOf({ ...manifest, subject: "did:web:mallory.example" });

/** The proxy's own answers: a body for each of those paths, as a resolver answers it. */
function ownAnswers(bodies: Map<string, Uint8Array>) {
  return (path: string) => {
    const body = bodies.get(path);
    if (body === undefined) return undefined;
    const headers = new Headers({ ...CORS, ...MANIFEST_TYPE, "X-UM-Resolver-Contract": "manifest-resolver/v0.1" });
    return { status: 200, headers, body };
  };
}

const READABLE = "/readable";
const UNREADABLE = "/unreadable";

/**
 * The other origin's server: each of `manifests` at READABLE/<its path>, for any page to read, and at
 * UNREADABLE/<its path>, for none (no CORS header: only a client that is no browser reads it).
 */
function redirectTargets(manifests: Record<string, unknown>[]) {
  const bodies = new Map(manifests.map((m) => [umidPath(m["@id"] as string), bodyOf(m)]));
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? "";
    const readable = bodies.get(url.slice(READABLE.length));
    const unreadable = bodies.get(url.slice(UNREADABLE.length));
    if (url.startsWith(`${READABLE}/`) && readable !== undefined)
      response.writeHead(200, { ...CORS, ...MANIFEST_TYPE }).end(readable);
    else if (url.startsWith(`${UNREADABLE}/`) && unreadable !== undefined)
      response.writeHead(200, MANIFEST_TYPE).end(unreadable);
    else response.writeHead(404, CORS).end();
  };
}

/** `files` with the page's meta tag `name` holding `content`: the tag the page has, or one added to its head. */
function withMeta(files: OutputFile[], name: string, content: string): OutputFile[] {
  const escaped = content.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
  const tag = `<meta name="${name}" content="${escaped}">`;
  return files.map((file) => {
    if (file.path !== "index.html") return file;
    const html = new TextDecoder().decode(file.bytes);
    const existing = new RegExp(`<meta name="${name}" content="[^"]*">`);
    return {
      ...file,
      bytes: utf8(existing.test(html) ? html.replace(existing, () => tag) : html.replace("</head>", `${tag}\n</head>`)),
    };
  });
}

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return portOf(server);
}

const portOf = (server: Server) => ({ server, port: (server.address() as AddressInfo).port });

/** Closes `server`, its connections too: the silent one's never end by themselves. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
