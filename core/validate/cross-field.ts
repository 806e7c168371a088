/**
 * Rules of the v0.4 format that relate one value to another, which JSON Schema cannot
 * state. Each reads only values of the right type, so it runs (and reports) even when the
 * schema found other faults in the same manifest. None depends on the clock.
 */
import { excerpt, quoted } from "../excerpt.ts";
import { isJsonObject } from "../json/strict-json.ts";
import { instant, noSuchDate } from "../date-time.ts";
import type { Problem } from "./problem.ts";

/** Largest embedded claim proof (one verifiable presentation), in canonical JSON bytes. */
export const MAX_CLAIM_PROOF_BYTES = 50 * 1024;

type Json = Record<string, unknown>;

export function crossFieldProblems(manifest: Json): Problem[] {
  return [
    ...issuedBeforeExpiry(manifest),
    ...floorsOnlyRaise(manifest),
    ...delegationsBySubject(manifest),
    ...claimRules(manifest),
  ];
}

export function issuedBeforeExpiry(m: Json): Problem[] {
  const issued = existingInstant(m.issuedAt);
  const expires = existingInstant(m.expiresAt);
  if (issued === undefined || expires === undefined || issued <= expires) return [];
  return [
    {
      pointer: "/issuedAt",
      rule: "time/issued-after-expiry",
      message: `issuedAt ${excerpt(String(m.issuedAt))} is after expiresAt ${excerpt(String(m.expiresAt))}`,
    },
  ];
}

/** A facet or claim may demand a higher trust tier than the manifest, never a lower one. */
function floorsOnlyRaise(m: Json): Problem[] {
  const floor = typeof m.requiredTrustTier === "number" ? m.requiredTrustTier : 0;
  const problems: Problem[] = [];
  for (const list of ["facets", "claims"] as const) {
    objects(m[list]).forEach((item, i) => {
      const tier = item.requiredTrustTier;
      if (typeof tier === "number" && tier < floor) {
        problems.push({
          pointer: `/${list}/${i}/requiredTrustTier`,
          rule: "tier/below-manifest-floor",
          message:
            `requiredTrustTier ${tier} is below the manifest's requiredTrustTier ${floor}: a ` +
            `${list.slice(0, -1)} floor may only raise it`,
        });
      }
    });
  }
  return problems;
}

/** Only the subject can delegate on its own behalf. */
function delegationsBySubject(m: Json): Problem[] {
  const problems: Problem[] = [];
  objects(m.pointers).forEach((pointer, i) => {
    if (pointer["@type"] !== "um:agentDelegation" || typeof pointer.delegatedBy !== "string") return;
    if (pointer.delegatedBy !== m.subject) {
      problems.push({
        pointer: `/pointers/${i}/delegatedBy`,
        rule: "delegation/not-by-subject",
        message: `delegatedBy ${quoted(pointer.delegatedBy)} must be the manifest subject ${quoted(m.subject)}`,
      });
    }
  });
  return problems;
}

function claimRules(m: Json): Problem[] {
  const problems: Problem[] = [];
  objects(m.claims).forEach((claim, i) => {
    const at = `/claims/${i}`;
    if (isJsonObject(claim.ceremonyProof))
      problems.push(...ceremonyThreshold(claim.ceremonyProof, `${at}/ceremonyProof`));
    const proof = claim.claimProof;
    const embedded: [unknown, string][] = Array.isArray(proof)
      ? proof.map((p, j) => [p, `${at}/claimProof/${j}`])
      : [[proof, `${at}/claimProof`]];
    for (const [value, pointer] of embedded) {
      if (!isJsonObject(value)) continue;
      const bytes = canonicalByteLength(value);
      if (bytes > MAX_CLAIM_PROOF_BYTES) {
        problems.push({
          pointer,
          rule: "claim/proof-too-large",
          message:
            `embedded proof is ${bytes} bytes; the limit per presentation is ` +
            `${MAX_CLAIM_PROOF_BYTES} bytes (50 KiB): reference it by URI instead`,
        });
      }
    }
  });
  return problems;
}

/** `M-of-N`: at least one signer needed, no more than exist, and at least M distinct attesters among at most N. */
function ceremonyThreshold(proof: Json, at: string): Problem[] {
  const match = typeof proof.threshold === "string" ? /^(\d+)-of-(\d+)$/.exec(proof.threshold) : null;
  if (match === null || !Array.isArray(proof.attesters)) return [];
  const m = Number(match[1]);
  const n = Number(match[2]);
  const attesters = proof.attesters.filter((a): a is string => typeof a === "string");
  const distinct = new Set(attesters).size;
  const problem = (pointer: string, message: string): Problem[] => [
    { pointer: `${at}/${pointer}`, rule: "ceremony/threshold", message },
  ];
  const threshold = excerpt(match[0]);
  if (m < 1 || m > n) return problem("threshold", `threshold ${threshold} needs 1 <= M <= N`);
  if (distinct < attesters.length) return problem("attesters", "attesters must be distinct");
  if (distinct < m)
    return problem("attesters", `threshold ${threshold} needs at least ${m} attesters, found ${distinct}`);
  if (distinct > n)
    return problem("attesters", `threshold ${threshold} allows at most ${n} attesters, found ${distinct}`);
  return [];
}

/**
 * The instant of a date that exists. An impossible date (2026-02-30) is the schema's error
 * alone: Date.parse reads it as another date (2026-03-02), which no rule may compare.
 */
function existingInstant(value: unknown): number | undefined {
  return typeof value === "string" && noSuchDate(value) !== undefined ? undefined : instant(value);
}

function objects(list: unknown): Json[] {
  return Array.isArray(list) ? list.map((item) => (isJsonObject(item) ? item : {})) : [];
}

/**
 * The UTF-8 length of a parsed value's JCS form, without canonicalizing it. JCS writes
 * strings, numbers and literals exactly as JSON.stringify does and only orders members
 * differently, so the two texts hold the same characters; JSON.stringify is native and
 * several times faster. (Values that JCS refuses, lone surrogates, never pass the parser.)
 */
function canonicalByteLength(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}
