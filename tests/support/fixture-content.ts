/**
 * Content this repository has never seen, made at test time: a fresh key, manifests with
 * UMIDs that stress every path rule (spaces, %, ?, #, /, non-ASCII, hundreds of
 * characters, base64url names that differ only in case, reserved words), routes, a
 * transparency log of it all, and, after the build, two records corrupted on disk.
 */
import { execFileSync } from "node:child_process";
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeBase64url, decodeUtf8, encodeBase64url, utf8 } from "../../core/base64url.ts";
import { shardOf } from "../../edge/shard-file.ts";
import { signProfileA } from "../../scripts/crypto/profile-a.ts";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { readRecords } from "./index.ts";
import { CLI } from "./paths.ts";

export const CONTEXT = "https://universalmanifest.net/ns/v0.4";

/** A v0.1 payload: v0.1 defines no verifiable signature, so it is published only when `_unsigned.json` opts it in. */
export const v01Payload = (subject = "did:web:old.example"): Record<string, unknown> => ({
  "@context": "https://universalmanifest.net/ns/universal-manifest/v0.1/schema.jsonld",
  "@id": "urn:legacy:v01",
  "@type": "um:Manifest",
  manifestVersion: "0.1",
  subject,
  issuedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2030-01-01T00:00:00Z",
});

/** What `_unsigned.json` pins a file to: the SHA-256 of its JCS canonical form. */
export const optInDigest = (value: unknown): string =>
  `sha256-${createHash("sha256").update(canonicalize(value)).digest("base64url")}`;

export function manifestFor(umid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "@context": CONTEXT,
    "@id": umid,
    "@type": "um:Manifest",
    manifestVersion: "0.4",
    subject: "did:web:fixture.example",
    issuedAt: "2026-01-01T00:00:00Z",
    expiresAt: "2030-01-01T00:00:00Z",
    ...extra,
  };
}

export const FIXTURE_KEY_REF = "did:web:fixture.example#key-1";

/** A facet of id `id`. */
export const facetOf = (id: string, extra: Record<string, unknown> = {}) => ({
  "@id": id,
  "@type": "um:Facet",
  ...extra,
});

/** A consent to read facet `facetId` for "display", granted 2026-01-01, until 2027-01-01 unless `extra` says. */
export const consentFor = (facetId: string, extra: Record<string, unknown> = {}) => ({
  "@id": `urn:consent:${facetId}`,
  "@type": "um:Consent",
  facetRef: facetId,
  scope: ["read"],
  purpose: "display",
  grantedAt: "2026-01-01T00:00:00Z",
  expiresAt: "2027-01-01T00:00:00Z",
  ...extra,
});

export function signed(manifest: Record<string, unknown>, key: KeyObject): Record<string, unknown> {
  return { ...manifest, signature: signProfileA(manifest, key, FIXTURE_KEY_REF, new Date("2026-01-01T00:00:00Z")) };
}

/** The `_keys.json` that pins `key` for the keyRef `signed` uses, as a publisher would. */
export function pinning(key: KeyObject): Record<string, string> {
  return { [FIXTURE_KEY_REF]: createPublicKey(key).export({ format: "der", type: "spki" }).toString("base64") };
}

/**
 * The fixture's UM_RESOLVER_URL: a host with a port, where `_keys.json` also pins did:web keyRefs, so that the build
 * publishes their documents (scripts/check/did-web-documents.ts). FIXTURE_KEY_REF's host has no port: another host.
 */
export const FIXTURE_RESOLVER_URL = "https://fixture.example:8443";

export function newKey(): KeyObject {
  return generateKeyPairSync("ed25519").privateKey;
}

/**
 * Two printable ASCII UMIDs whose base64url spellings differ only in letter case, in one body folder (`together`, the
 * default: their names meet there) or in two (`apart`: they never meet).
 */
export function caseTwins(where: "together" | "apart" = "together"): [string, string] {
  for (let n = 0; ; n++) {
    const a = `urn:case:${n}`;
    const name = encodeBase64url(utf8(a));
    for (let i = 0; i < name.length; i++) {
      const c = name[i]!;
      const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
      if (flipped === c) continue;
      const bytes = decodeBase64url(name.slice(0, i) + flipped + name.slice(i + 1));
      const b = bytes && decodeUtf8(bytes);
      if (b === undefined || !/^[\x21-\x7e]+$/.test(b) || b === a) continue;
      if ((shardOf(a) === shardOf(b)) === (where === "together")) return [a, b];
    }
  }
}

export interface Fixture {
  root: string;
  content: string;
  dist: string;
  /** UMID → the manifest as written (and signed). */
  published: Map<string, Record<string, unknown>>;
  redirects: Map<string, string>;
  revoked: string[];
  /** What each status document must say, by UMID, from the rules (docs/output-format.md, "Status documents"). */
  statuses: Map<string, { status: string; updatedAt: string; reason?: string }>;
  /** Revoked, although a valid manifest file for it exists. */
  revokedWithFile: string;
  /** Published, then its body file deleted / its bytes altered on disk. */
  corruptMissing: string;
  corruptAltered: string;
  caseTwins: [string, string];
  long: string;
  /** The did:web documents the build must publish, by the path they are served at: each DID, its keyRefs' keys. */
  didDocuments: Map<string, { did: string; keys: Map<string, KeyObject> }>;
  /**
   * The status list content/_status/ allocates (issue 27): the path it is served at, and the status each allocated
   * index must hold (0 active, 1 suspended, 2 revoked); every other index holds 0.
   */
  statusList: { path: string; url: string; codes: Map<number, number> };
  /** content/_resolvers.json, the discovery document served at /.well-known/um-resolvers. */
  resolvers: Record<string, unknown>;
  /**
   * The transparency log `manifest-resolver log` made in content/_log/: its size, and its files (all but the verifier)
   * by their path under the log's prefix.
   */
  log: { size: number; files: Map<string, Buffer> };
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const root = mkdtempSync(join(tmpdir(), "um-fixture-"));
  const content = join(root, "content");
  const dist = join(root, "dist");
  const key = newKey();
  const twins = caseTwins();
  const long = `urn:long:${"0123456789abcdef".repeat(25)}/${"é".repeat(20)}`;
  const umids = [
    "urn:uuid:4b7d1e2a-93c1-4f0e-a6b2-7d8e9f0a1b2c",
    "umid with spaces",
    "100%-pure",
    "why?not=really&x",
    "frag#ment",
    "path/with/several/slashes",
    "ünïcødé-ümid-日本語-🚀",
    "did:web:example.org:users:alice#manifest",
    "health",
    "b64u:not-really-base64",
    "..",
    long,
    ...twins,
  ];
  const corruptMissing = "urn:corrupt:missing-body";
  const corruptAltered = "urn:corrupt:altered-body";
  const revokedWithFile = "urn:revoked:still-has-a-file";

  const published = new Map<string, Record<string, unknown>>();
  const write = (file: string, value: unknown, indent: string | number = 2) => {
    mkdirSync(join(content, file, ".."), { recursive: true });
    writeFileSync(join(content, file), `${JSON.stringify(value, null, indent)}\n`);
  };
  [...umids, corruptMissing, corruptAltered].forEach((umid, i) => {
    const manifest = signed(
      manifestFor(umid, { facets: [{ "@id": `urn:facet:${i}`, "@type": "um:Facet", name: `facet ${i}` }] }),
      key,
    );
    published.set(umid, manifest);
    // Several folders, both extensions, and a tab-indented file: bodies are canonical anyway.
    write(
      `${i % 3 === 0 ? "nested/deeper/" : i % 3 === 1 ? "nested/" : ""}m${i}.${i % 2 ? "json" : "jsonld"}`,
      manifest,
      i === 1 ? "\t" : 2,
    );
  });
  write("withheld.json", signed(manifestFor(revokedWithFile), key));
  // On the resolver's host: a bare host (its key, as another keyRef), and a path with two keys, pinned out of order.
  const other = newKey();
  const didDocuments = new Map([
    ["/.well-known/did.json", { did: "did:web:fixture.example%3A8443", keys: new Map([["#key-1", key]]) }],
    [
      "/users/alice/did.json",
      {
        did: "did:web:fixture.example%3A8443:users:alice",
        keys: new Map([
          ["#key-2", other],
          ["#key-1", key],
        ]),
      },
    ],
  ]);
  const spki = (k: KeyObject) => createPublicKey(k).export({ format: "der", type: "spki" }).toString("base64");
  write("_keys.json", {
    ...pinning(key),
    ...Object.fromEntries(
      [...didDocuments.values()].flatMap(({ did, keys }) =>
        [...keys].map(([fragment, k]) => [`${did}${fragment}`, spki(k)]),
      ),
    ),
  });
  // Underscore files are not manifests, whatever they hold.
  writeFileSync(join(content, "_notes.json"), "not json at all");

  const redirects = new Map([
    ["urn:moved:elsewhere", "https://canonical.example/manifests/urn:moved:elsewhere"],
    // With a query, served as written; not on loopback, as the fixture's resolver is not: no client would follow it.
    ["moved/with slash", "https://legacy.example/m?id=42"],
  ]);
  const revoked = ["urn:revoked:gone", revokedWithFile];
  const [suspended, reinstated, gone, goneWithFile] = [
    "umid with spaces",
    "100%-pure",
    "urn:revoked:gone",
    revokedWithFile,
  ] as const;
  write("_routes.json", {
    redirects: [...redirects].map(([umid, location]) => ({ umid, location })),
    // One revocation dated with an offset (served in UTC), one undated (served as 1970).
    revoked: [
      { umid: gone, revokedAt: "2026-03-01T12:00:00+02:00", reason: "test" },
      { umid: goneWithFile, reason: "test" },
    ],
    suspended: [{ umid: suspended, suspendedAt: "2026-02-01T00:00:00Z", reason: "under review" }],
    reinstated: [{ umid: reinstated, reinstatedAt: "2026-02-02T00:00:00.250Z" }],
  });
  // Every manifest here was issued 2026-01-01: active since then unless _routes.json says otherwise.
  const statuses = new Map<string, { status: string; updatedAt: string; reason?: string }>(
    [...published.keys()].map((umid) => [umid, { status: "active", updatedAt: "2026-01-01T00:00:00.000Z" }]),
  );
  statuses.set(suspended, { status: "suspended", updatedAt: "2026-02-01T00:00:00.000Z", reason: "under review" });
  statuses.set(reinstated, { status: "active", updatedAt: "2026-02-02T00:00:00.250Z" });
  statuses.set(gone, { status: "revoked", updatedAt: "2026-03-01T10:00:00.000Z", reason: "test" });
  statuses.set(goneWithFile, { status: "revoked", updatedAt: "1970-01-01T00:00:00.000Z", reason: "test" });

  // A status list allocating a suspended, a revoked, a reinstated and an active UMID (no manifest need name its entry).
  const listId = "00c0ffee00c0ffee";
  const statusListPath = `/.well-known/manifest-resolver/status-list/${listId}`;
  const allocated: [number, string, number][] = [
    [0, umids[0]!, 0],
    [5, suspended, 1],
    [77, gone, 2],
    [131071, reinstated, 0],
  ];
  write(`_status/${listId}.json`, {
    url: `${FIXTURE_RESOLVER_URL}${statusListPath}`,
    entries: allocated.map(([index, umid]) => [index, umid]),
  });
  const resolvers = {
    resolver: "did:web:fixture.example%3A8443",
    peers: [{ url: "https://peer.example/", did: "did:web:peer.example" }],
  };
  write("_resolvers.json", resolvers);

  const env = { ...process.env, UM_RESOLVER_URL: FIXTURE_RESOLVER_URL };
  const logKey = join(root, "log-key.pem");
  writeFileSync(logKey, newKey().export({ format: "pem", type: "pkcs8" }));
  execFileSync(process.execPath, [CLI, "log", "--key", logKey, "--content", content], { stdio: "pipe", env });
  const logDir = join(content, "_log");
  const logFiles = new Map(
    readdirSync(logDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== "verifier")
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [path.slice(logDir.length + 1), readFileSync(path)] as const;
      }),
  );
  execFileSync(
    process.execPath,
    [CLI, "build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`, "--kv-out", `${dist}-kv`],
    { stdio: "pipe", env },
  );
  const records = readRecords(dist);
  unlinkSync(join(dist, records[corruptMissing]!.file!));
  writeFileSync(
    join(dist, records[corruptAltered]!.file!),
    JSON.stringify(published.get(corruptAltered)).replace("facet", "FACET"),
  );

  return {
    root,
    content,
    dist,
    published,
    redirects,
    revoked,
    statuses,
    revokedWithFile,
    corruptMissing,
    corruptAltered,
    caseTwins: twins,
    long,
    didDocuments,
    statusList: {
      path: statusListPath,
      url: `${FIXTURE_RESOLVER_URL}${statusListPath}`,
      codes: new Map(allocated.map(([index, , code]) => [index, code])),
    },
    resolvers,
    log: { size: Number(logFiles.get("checkpoint")!.toString().split("\n")[1]), files: logFiles },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A build of content that keeps no transparency log: one manifest, and the Workers KV files beside the output. */
export interface UnloggedFixture {
  dist: string;
  umid: string;
  manifest: Record<string, unknown>;
  cleanup(): void;
}

export function makeUnloggedFixture(): UnloggedFixture {
  const root = mkdtempSync(join(tmpdir(), "um-unlogged-"));
  const content = join(root, "content");
  const dist = join(root, "dist");
  const key = newKey();
  const umid = "urn:unlogged:only";
  const manifest = signed(manifestFor(umid), key);
  mkdirSync(content);
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
  writeFileSync(join(content, "only.json"), JSON.stringify(manifest));
  execFileSync(
    process.execPath,
    [CLI, "build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`, "--kv-out", `${dist}-kv`],
    { stdio: "pipe", env: { ...process.env, UM_RESOLVER_URL: FIXTURE_RESOLVER_URL } },
  );
  return { dist, umid, manifest, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
