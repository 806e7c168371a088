/**
 * Rules of one manifest's values that JSON Schema cannot state (core/validate/cross-field.ts),
 * of its lifetime against the clock (freshness.ts), and of payloads of earlier versions
 * (legacy.ts).
 */
import type { Rule } from "./rule.ts";

export const MANIFEST_RULES = {
  "time/issued-after-expiry": {
    severity: "error",
    summary: "issuedAt is after expiresAt",
    why:
      "A manifest valid from after it expires is never valid: every relying party " +
      "rejects it, and the dates were probably swapped or mistyped.",
    source: "contract 2.1; UM v0.4 core §1.3.3",
    fix: "Correct the dates so that issuedAt is not after expiresAt, then sign the manifest again.",
  },
  "time/expired": {
    severity: "warning",
    summary: "the manifest has expired (or its expiresAt names no instant)",
    why:
      "Consumers must enforce expiresAt for every decision, whatever an HTTP cache " +
      "says (contract 1, item 6): an expired manifest is served but refused by " +
      "everyone who reads it. A warning, since the build publishes it all the same; an " +
      "error under check --strict.",
    source: "contract 1 (item 6), 8; UM v0.4 core §3.1.2, §6.2",
    fix:
      "Issue a new manifest: set a later expiresAt (and issuedAt to now), then sign it " +
      "again with manifest-resolver sign.",
  },
  "time/not-yet-issued": {
    severity: "warning",
    summary: "issuedAt is in the future",
    why:
      "A relying party treats a manifest issued more than its clock-skew tolerance " +
      "ahead (a minute here) as stale and rejects it until then. A warning, since the " +
      "build publishes it all the same; an error under check --strict.",
    source: "UM v0.4 core §3.1.2",
    fix: "Set issuedAt to the time of signing, then sign again; or wait to publish until then.",
  },
  "tier/below-manifest-floor": {
    severity: "error",
    summary: "a facet's or claim's requiredTrustTier is below the manifest's",
    why:
      "Trust floors only raise: the manifest's requiredTrustTier applies to all it " +
      "holds, so a facet or claim cannot ask for less. A lower value suggests a floor " +
      "meant to be higher.",
    source: "contract 2.1-2.3, 5 (item 4)",
    fix: "Raise the facet's or claim's requiredTrustTier to at least the manifest's, or lower the manifest's.",
  },
  "delegation/not-by-subject": {
    severity: "error",
    summary: "an agent delegation's delegatedBy is not the manifest's subject",
    why:
      "Only the subject can delegate on its own behalf: a pointer of @type " +
      "um:agentDelegation delegated by anyone else claims an authority the signer " +
      "cannot give.",
    source: "contract 2.5; UM v0.4 conformance suite (agent-delegation-delegatedby-mismatch)",
    fix: "Set delegatedBy to the manifest's subject, or remove the delegation.",
  },
  "liveness/unknown-member": {
    severity: "warning",
    summary: "a requiredLiveness floor carries a member other than minFreshness and userVerified",
    why:
      "The published v0.4 schema closes the floor object (EXT-T1 §T1.3.1), so an evaluator " +
      "that validates with it rejects the whole manifest. This resolver's evaluator ignores " +
      "the member, as core §3.1.1 requires of unknown members, so the floor is read without " +
      "it. A warning: the manifest is published all the same.",
    source: "UM v0.4 EXT-T1 §T1.3.1 (schema.json requiredLiveness); core §3.1.1",
    fix: "Remove the member, or move what it says to the facet itself, then sign again.",
  },
  "ceremony/threshold": {
    severity: "error",
    summary: "a ceremony proof's M-of-N threshold does not fit its attesters",
    why:
      "A threshold attestation needs 1 <= M <= N, and between M and N distinct " +
      "attesters: with fewer the threshold cannot have been met, and with more or " +
      "repeated ones the proof says something else than it claims.",
    source: "contract 2.3 (CeremonyProof)",
    fix:
      "Correct the threshold, or the list of attesters, so that M distinct attesters " +
      "at least and N at most are listed.",
  },
  "claim/proof-too-large": {
    severity: "error",
    summary: "an embedded claim proof is larger than 50 KiB",
    why:
      "An embedded proof (one verifiable presentation) is at most 50 KiB (51,200 " +
      "bytes) of canonical JSON: larger ones bloat every resolution of the manifest, " +
      "and relying parties refuse them.",
    source: "UM v0.4 conformance suite (claim-proof-oversize-vp); UM v0.4 core §6.3",
    fix: "Reference the proof by URI instead of embedding it.",
  },
  "version/unsupported": {
    severity: "error",
    summary: "the manifestVersion has no processing path here",
    why:
      "Each version is read by its own rules; a payload of a version this reader has " +
      "no rules for cannot be judged, and must not be waved through.",
    source: "UM v0.4 core §1.3.1",
    fix: "Publish the payload as a v0.4 manifest.",
  },
  "legacy/type": {
    severity: "error",
    summary: "an older payload's @type does not include um:Manifest (or a shard's um:Shard)",
    why:
      "Payloads of versions 0.1 to 0.3 are held to their own version's rules (contract " +
      "4.3), and each version requires @type to name what the object is; those schemas " +
      "state it only in prose.",
    source: "contract 4.3; the v0.1-v0.3 specifications",
    fix: "Add um:Manifest (or um:Shard, in a shard) to @type.",
  },
  "legacy/shards": {
    severity: "error",
    summary: "an older payload's shards is not an array of objects",
    why:
      "In versions 0.1 to 0.3, shards is an array of um:Shard objects; anything else " +
      "is a malformed payload of that version.",
    source: "contract 4.3; the v0.1-v0.3 specifications",
    fix: "Make shards an array of objects, each with @type um:Shard, or remove it.",
  },
  "legacy/context": {
    severity: "error",
    summary: "a v0.3 payload's @context does not reference the v0.3 namespace",
    why:
      "A v0.3 @context must reference {standards_url}/ns/v0.3 (v0.3 §1.2.1): without " +
      "it the document does not say which vocabulary its terms are in.",
    source: "contract 4.3; the v0.3 specification §1.2.1",
    fix: "Add {standards_url}/ns/v0.3 to @context (https://universalmanifest.net/ns/v0.3 by default).",
  },
  "legacy/unsigned": {
    severity: "error",
    summary: "a v0.1 payload carries no verifiable signature, and is not opted in",
    why:
      "Version 0.1 defines no signature format that can be verified, and the v0.4 spec " +
      "says it must not be relied upon for tamper protection (core §6.1): nothing " +
      "shows who wrote the payload. It is published only if the publisher opts in to " +
      "those exact bytes.",
    source: 'UM v0.4 core §6.1; README, "Older manifest versions"',
    fix:
      "Re-issue it as a signed v0.4 manifest; or, to publish it as it is, add the " +
      "entry the message gives to _unsigned.json (outside a content folder: check " +
      "--allow-unsigned FILE).",
    example: '{ "legacy/old-profile.jsonld": "sha256-Q9i594UqIi0pZlpMkbl-pj4yqVV5W5umNEq_8DtoJ9o" }',
  },
  "legacy/unsigned-changed": {
    severity: "error",
    summary: "an unsigned payload changed since it was opted in",
    why:
      "An _unsigned.json entry covers the bytes a reviewer approved (their canonical " +
      "SHA-256), so that every change to an unsigned payload is a reviewed change to " +
      "_unsigned.json.",
    source: 'README, "Older manifest versions"',
    fix: "Review what changed in the file, then update its entry in _unsigned.json to the digest the message gives.",
  },
} satisfies Record<string, Rule>;
