/**
 * A benchmark corpus: N realistic signed v0.4 manifests (a few KB each, with facets one of
 * which is encrypted, claims with holder bindings, consents, and some agent delegations),
 * signed with a handful of pinned keys as a real publisher's would be, plus 1% redirects
 * and 1% revocations. Deterministic (seeded), so a cached corpus is the corpus; cached in
 * bench/.cache/corpus-N until deleted. A warm run's benchmark changes some of its manifests
 * for a while (withChangedManifests), and puts them back.
 */
import { execFileSync } from "node:child_process";
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../scripts/concurrency.ts";

const CONTEXT = "https://universalmanifest.net/ns/v0.4";
const KEYS = 5;
const CHUNK = 10_000;
const ISSUED = Date.parse("2026-11-01T00:00:00Z");

/** xorshift32: enough randomness for plausible content, and the same every run. */
function prng(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

function keyFromSeed(i: number): KeyObject {
  const seed = Buffer.alloc(32, i + 1);
  return createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
    format: "der",
    type: "pkcs8",
  });
}

const keys = Array.from({ length: KEYS }, (_, i) => keyFromSeed(i));
const keyRef = (k: number) => `did:web:publisher.example#key-${k + 1}`;

const pad = (n: number, width: number) => String(n).padStart(width, "0");
export const umidOf = (i: number) => `urn:uuid:${pad(i, 8)}-0000-4000-8000-${pad(i, 12)}`;
const rootOf = (n: number) => join(import.meta.dirname, ".cache", `corpus-${n}`);
const fileOf = (content: string, i: number) => join(content, pad(i % 256, 3), `${i}.json`);

function manifest(i: number, issuedAt: string): Record<string, unknown> {
  const random = prng(i + 1);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const subject = `did:web:member-${i}.example`;
  const facets = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, f) => ({
    "@id": `urn:um:facet:${i}:${f}`,
    "@type": "um:Facet",
    name: pick(["profile", "contact", "payment", "health", "access", "preferences"]),
    description: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.",
    requiredTrustTier: 1 + Math.floor(random() * 2),
    ...(f === 0
      ? {
          encryptionProfile: "jwe-inline-v1",
          entity: {
            protected: "eyJhbGciOiJFQ0RILUVTK0EyNTZLVyIsImVuYyI6IkEyNTZHQ00ifQ",
            recipients: [
              { header: { kid: `did:web:clinic-${i % 97}.example#key-agree` }, encrypted_key: "k".repeat(43) },
            ],
            iv: "i".repeat(16),
            ciphertext: "c".repeat(200 + Math.floor(random() * 600)),
            tag: "t".repeat(22),
          },
        }
      : {
          requiredLiveness: { minFreshness: pick(["live", "recent", "stale"]) },
          requiredAssuranceClass: pick(["software", "hardware-uv", "hardware-bound"]),
          entity: {
            "@id": `${subject}#facet-${f}`,
            "@type": "schema:Thing",
            "schema:name": `Facet ${f} of member ${i}`,
          },
        }),
  }));
  return {
    "@context": CONTEXT,
    "@id": umidOf(i),
    "@type": "um:Manifest",
    manifestVersion: "0.4",
    subject,
    issuedAt,
    expiresAt: "2031-11-01T00:00:00Z",
    requiredTrustTier: 1,
    facets,
    claims: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, c) => ({
      "@id": `urn:um:claim:${i}:${c}`,
      "@type": pick(["age.over18", "membership.organization", "residency.country"]),
      issuer: `did:web:issuer-${i % 13}.example`,
      subject,
      issuedAt: "2026-10-01T00:00:00Z",
      expiresAt: "2027-10-01T00:00:00Z",
      requiredTrustTier: 1,
      holderBinding: { mode: "sd-jwt-kb", cnfThumbprint: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs" },
      claimProof: [
        {
          proofType: "DataIntegrityProof",
          proofPurpose: "assertionMethod",
          verificationMethod: `did:web:issuer-${i % 13}.example#key-1`,
          proofValue: "z".repeat(88),
        },
      ],
    })),
    consents: facets.slice(0, 2).map((facet, c) => ({
      "@id": `urn:um:consent:${i}:${c}`,
      "@type": "um:Consent",
      facetRef: facet["@id"],
      grantor: subject,
      scope: ["read"],
      purpose: "Checkout at a partner shop",
      grantedAt: "2026-11-01T00:00:00Z",
      expiresAt: "2027-11-01T00:00:00Z",
    })),
    ...(i % 10 === 0 && {
      pointers: [
        {
          "@type": "um:agentDelegation",
          delegateType: "ai-agent",
          delegatedBy: subject,
          delegatedAt: "2026-11-01T00:00:00Z",
          expiresAt: "2027-01-01T00:00:00Z",
          scope: ["read"],
        },
      ],
    }),
  };
}

/**
 * Manifest i's file, signed. Revision r is re-issued, and re-signed with the same key, r
 * seconds after revision 0: the corpus's own, whose times are written in whole seconds.
 */
function manifestFile(i: number, revision: number): string {
  const issued = new Date(ISSUED + revision * 1000);
  const m = manifest(i, issued.toISOString().replace(".000Z", "Z"));
  m.signature = signProfileA(m, keys[i % KEYS]!, keyRef(i % KEYS), issued);
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** The content directory of an N-manifest corpus, made (and cached) if needed. */
export async function corpus(n: number, log: (line: string) => void): Promise<string> {
  const root = rootOf(n);
  const content = join(root, "content");
  if (existsSync(join(root, "complete"))) return content;
  await rm(root, { recursive: true, force: true });
  const started = performance.now();
  for (let from = 0; from < n; from += CHUNK) {
    const indexes = Array.from({ length: Math.min(CHUNK, n - from) }, (_, j) => from + j);
    const folders = new Set(indexes.map((i) => join(content, pad(i % 256, 3))));
    for (const folder of folders) await mkdir(folder, { recursive: true });
    await mapConcurrent(indexes, FILE_CONCURRENCY, (i) => writeFile(fileOf(content, i), manifestFile(i, 0)));
    log(`  corpus: ${Math.min(from + CHUNK, n)} / ${n} manifests`);
  }
  const pinned = Object.fromEntries(
    keys.map((k, i) => [keyRef(i), createPublicKey(k).export({ format: "der", type: "spki" }).toString("base64")]),
  );
  await writeFile(join(content, "_keys.json"), `${JSON.stringify(pinned, null, 2)}\n`);
  const extra = Math.max(1, Math.floor(n / 100));
  const routes = {
    redirects: Array.from({ length: extra }, (_, i) => ({
      umid: umidOf(n + i),
      location: `https://canonical.example/m/${umidOf(n + i)}`,
    })),
    revoked: Array.from({ length: extra }, (_, i) => ({ umid: umidOf(n + extra + i), reason: "rotated" })),
  };
  await writeFile(join(content, "_routes.json"), `${JSON.stringify(routes, null, 2)}\n`);
  await writeFile(join(root, "complete"), `${n} manifests in ${Math.round(performance.now() - started)} ms\n`);
  return content;
}

/** The manifests `changed()` rewrites in an N corpus: `count` of them, spread over it. */
const changedIndexes = (n: number, count: number) =>
  Array.from({ length: Math.min(count, n) }, (_, k) => Math.floor((k * n) / Math.min(count, n)));

/**
 * Rewrites `count` manifests of the N corpus in `content` (the corpus's own folder or a
 * clone's) as `revision`: 0 is the corpus's own bytes, any other a re-issue, re-signed.
 */
export function rewriteManifests(content: string, n: number, count: number, revision: number): void {
  for (const i of changedIndexes(n, count)) writeFileSync(fileOf(content, i), manifestFile(i, revision));
}

/**
 * Runs `use` with `change()`, which rewrites `count` manifests of the (made) N corpus, spread
 * over it, as a revision not written before: each call changes the same files' bytes anew,
 * and they stay valid. Afterwards they are the corpus's own again, byte for byte. Meanwhile
 * the corpus has no "complete" marker, so that a run killed halfway leaves it to be made
 * again rather than passed off as the corpus.
 */
export async function withChangedManifests<T>(
  n: number,
  count: number,
  use: (change: () => void) => Promise<T>,
): Promise<T> {
  const root = rootOf(n);
  const marker = join(root, "complete");
  const made = await readFile(marker, "utf8");
  await rm(marker);
  const content = join(root, "content");
  let revision = 0;
  try {
    return await use(() => rewriteManifests(content, n, count, ++revision));
  } finally {
    rewriteManifests(content, n, count, 0);
    await writeFile(marker, made);
  }
}

/** The tag of the corpus repository's one commit: the base a change is made on. */
export const BASE = "base";

/** Runs git in `cwd`, quietly, as a bench user; its output. */
export function git(cwd: string, args: string[]): string {
  return execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * The N corpus as a publisher keeps it: a git repository (the corpus's folder) whose one
 * commit, tagged BASE, holds the content folder. Changes made by withChangedManifests are
 * then a publisher's uncommitted edits, and a clone of it is what CI checks out. Made once;
 * the tag is written last, so that a repository without it is made again.
 */
export async function gitCorpus(n: number, log: (line: string) => void): Promise<{ repo: string; content: string }> {
  const content = await corpus(n, log);
  const repo = rootOf(n);
  const tagged = () => {
    try {
      git(repo, ["rev-parse", "--verify", "-q", `refs/tags/${BASE}`]);
      return true;
    } catch {
      return false;
    }
  };
  if (!existsSync(join(repo, ".git")) || !tagged()) {
    log(`  corpus: committing ${n} manifests to git ...`);
    await rm(join(repo, ".git"), { recursive: true, force: true });
    git(repo, ["-c", "init.defaultBranch=main", "init", "-q"]);
    // The markers of the corpus's own cache are not content.
    await writeFile(join(repo, ".git", "info", "exclude"), "/complete\n");
    git(repo, ["add", "content"]);
    git(repo, ["commit", "-q", "-m", `${n} manifests`]);
    git(repo, ["tag", BASE]);
  }
  return { repo, content };
}
