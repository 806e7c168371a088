/**
 * Rules of a change against what the resolver already answered (`check --base REV`,
 * scripts/history/): history a pull request cannot rewrite.
 */
import type { Rule } from "./rule.ts";

const REDATED =
  "When a status began is history: relying parties were told it, in the status " +
  "document's updatedAt and cursor (EXT-OPT O2.2), and order the statuses they see " +
  "by it.";

export const HISTORY_RULES = {
  "history/unrevoked": {
    severity: "error",
    summary: "a UMID revoked at the base revision is not revoked now",
    why:
      "Revocation is permanent (EXT-OPT O2.3): relying parties that saw the UMID " +
      "revoked keep it revoked, whatever the resolver says later, and a key or " +
      "manifest revoked for a reason must not come back by an edit.",
    source: "EXT-OPT O2.3",
    fix: "Put the UMID's entry back in the revoked list of _routes.json, as it was at the base revision.",
  },
  "history/vanished": {
    severity: "error",
    summary: "a UMID published or redirected at the base revision is now neither published, redirected nor revoked",
    why:
      "It would answer 404 Not Found to everyone who holds a link to it, as if it had " +
      "never existed, rather than 410 (revoked) or 307 (moved).",
    source: "contract 3.1",
    fix:
      "Revoke or redirect the UMID instead of deleting it: manifest-resolver revoke " +
      "UMID, or manifest-resolver redirect UMID URL.",
  },
  "history/cursor-regressed": {
    severity: "error",
    summary: "a status change is dated no later than the status it ends",
    why:
      "A UMID's status cursor is when its current status began; relying parties order " +
      "the statuses they see by it (EXT-OPT O2.1, O2.2), so a change whose cursor does " +
      "not increase is refused by them as a rollback, and they keep the old status.",
    source: "EXT-OPT O2.1, O2.2",
    fix: "Date the change after the status it ends; manifest-resolver suspend, reinstate and revoke do.",
  },
  "history/revocation-redated": {
    severity: "error",
    summary: "a revocation's revokedAt was changed",
    why: `${REDATED} A revocation is never undone nor made again, so its time never moves.`,
    source: "EXT-OPT O2.2, O2.3",
    fix: "Put revokedAt back to its value at the base revision (the message names it).",
  },
  "history/suspension-redated": {
    severity: "error",
    summary: "a suspension's suspendedAt was moved earlier",
    why: `${REDATED} A suspension lifted and made again (reinstate, then suspend) begins later, never earlier.`,
    source: "EXT-OPT O2.2",
    fix: "Put suspendedAt back to its value at the base revision; to suspend again, reinstate and then suspend.",
  },
  "history/reinstatement-redated": {
    severity: "error",
    summary: "a reinstatement's reinstatedAt was moved earlier",
    why: `${REDATED} A reinstatement made again (suspend, then reinstate) begins later, never earlier.`,
    source: "EXT-OPT O2.2",
    fix: "Put reinstatedAt back to its value at the base revision; to reinstate again, suspend and then reinstate.",
  },
  "history/status-entry-freed": {
    severity: "error",
    summary: "a status list entry allocated at the base revision is freed, or given to another UMID",
    why:
      "Copies of a manifest carry its statusRef, which the signature does not cover, and relying parties read " +
      "the entry it names in the list the build derives from content/_status/. An entry no UMID holds is " +
      'published 0x0, "active", and one given to another UMID publishes that UMID\'s status, for every copy ' +
      "that names it.",
    source: "VC Bitstring Status List §2.1; EXT-OPT O2.4",
    fix: "Put the [index, UMID] pair back in its list's file as it was at the base revision (the message names it).",
  },
  "history/status-entry-moved": {
    severity: "error",
    summary: "a UMID has another status list entry than at the base revision",
    why:
      "The copies of its manifest that relying parties hold name the entry it had: moved, its status is no " +
      "longer where they read it, and a revoked manifest would read as the entry left behind says.",
    source: "VC Bitstring Status List §2.1; EXT-OPT O2.4",
    fix: "Give the UMID back the entry it had at the base revision, and its manifest the statusRef into it.",
  },
  "history/status-entry-unrevoked": {
    severity: "error",
    summary: "a status list entry served as revoked at the base revision would not read revoked now",
    why:
      "Revocation is permanent (EXT-OPT O2.3). The entry is freed or given to another UMID, or its list is " +
      "gone: whatever happened to the manifest's file, every copy of the revoked manifest names that entry, and " +
      "would read it active.",
    source: "EXT-OPT O2.3, O2.4; VC Bitstring Status List §2.1",
    fix: "Put the [index, UMID] pair back in its list's file (and the file itself) as it was at the base revision.",
  },
  "history/keys-removed": {
    severity: "error",
    summary: "_keys.json existed at the base revision and is gone",
    why:
      "While _keys.json exists, a manifest signed with a key it does not pin fails the build. Without it, any " +
      "key a manifest embeds is accepted: anyone could publish a manifest under your keyRefs, with only a " +
      "keys/none-pinned warning to show for it.",
    source: "UM v0.4 core §1.6.4",
    fix: "Restore content/_keys.json as it was at the base revision.",
  },
  "history/pin-removed": {
    severity: "error",
    summary: "a keyRef that manifests at the base revision were signed under is no longer pinned",
    why:
      "Those manifests, and the copies relying parties hold, were accepted because their key was pinned: " +
      "dropping the pin while keeping the file lets a manifest under that keyRef be judged by no pin.",
    source: "UM v0.4 core §1.6.4",
    fix:
      "Put the pin back. To rotate the key, pin the new key under the same keyRef (a warning, " +
      "history/pin-changed), or under a new keyRef beside the old one.",
  },
  "history/pin-changed": {
    severity: "warning",
    summary: "a keyRef is pinned to another key than at the base revision: a key rotation",
    why:
      "Rotating a key is allowed, but it decides which signatures are accepted under that keyRef from now on, " +
      "so it is never silent: the check warns, and the pull request summary (check --summary) lists it first.",
    source: "UM v0.4 core §1.6.4",
    fix: "Make sure the new key is yours; nothing to fix if the rotation is intended.",
  },
  "history/pin-added": {
    severity: "warning",
    summary: "a keyRef is pinned that was not at the base revision",
    why:
      "A new pin lets its key sign under that keyRef: the build publishes manifests it signed, and, for a did:web " +
      "on the resolver's host, the key in the DID's document, which relying parties resolve. Allowed, but never " +
      "silent: the check warns, and the pull request summary (check --summary) lists it first. Pinning where " +
      "nothing was pinned only closes the world of keys, and is not warned of.",
    source: "UM v0.4 core §1.6.4",
    fix: "Make sure the new key is yours; nothing to fix if the pin is intended.",
  },
  "history/unsigned-opt-in": {
    severity: "warning",
    summary: "_unsigned.json opts a file in that it did not at the base revision, or covers other bytes of it",
    why:
      "An entry of _unsigned.json lets a file be published with no verifiable signature: nothing but the " +
      "entry's digest vouches for its content. Adding one, or changing its digest, is allowed, but it decides " +
      "what is published unsigned, so it is never silent: the check warns, and the pull request summary " +
      "(check --summary) lists it first.",
    source: 'README, "Older manifest versions"',
    fix:
      "Review the file's content and make sure it is what you mean to publish unsigned; nothing to fix if it " +
      "is. Better still, re-issue it as a signed v0.4 manifest and drop the entry.",
    example: '{ "legacy/old-profile.jsonld": "sha256-Q9i594UqIi0pZlpMkbl-pj4yqVV5W5umNEq_8DtoJ9o" }',
  },
  "history/settings-changed": {
    severity: "warning",
    summary: "manifest-resolver.json sets a trust-bearing setting otherwise than at the base revision",
    why:
      "The settings file decides what the gate holds manifests to and what relying parties are pointed at: " +
      "resolverUrl is what statusRefs are checked against (without it, status-ref-mismatch and " +
      "status-ref-missing are off), statusListKey the one key the build signs status lists with, signingKeyRef " +
      "and statusLists what sign writes, logOrigin a new log's name. Allowed, but never silent: the check warns.",
    source: 'manifest-resolver (docs/security.md, "The settings file and the keys")',
    fix: "Review the change as you would one of content/_keys.json; nothing to fix if it is intended.",
  },
  "history/peers-changed": {
    severity: "warning",
    summary: "_resolvers.json names other peers, or another resolver DID, than at the base revision, or is gone",
    why:
      "Relying parties that discover peers (resolve --federate-discover) ask each peer _resolvers.json names for " +
      "a manifest's status, the most restrictive answer winning: a peer added can make manifests read revoked " +
      "or suspended, and one removed, or moved to another url, no longer reports a revocation only it knows of. " +
      "Allowed, but it decides whom every such relying party asks, so it is never silent: the check warns, " +
      "and the pull request summary (check --summary) lists it after the key pins and the unsigned opt-ins.",
    source: "EXT-OPT O5",
    fix:
      "Make sure each peer named is a resolver you trust, at its own url and DID; nothing to fix if the change " +
      "is intended.",
    example:
      '{ "resolver": "did:web:resolver.example", "peers": [{ "url": "https://peer.example/", "did": "did:web:peer.example" }] }',
  },
  "history/log-policy-changed": {
    severity: "warning",
    summary: "content/_log/policy names other witnesses or another quorum than at the base revision, or is gone",
    why:
      "The log's policy decides which witnesses must cosign its checkpoints before check and build let them be " +
      "served: a witness removed, a quorum lowered or the policy deleted lets a checkpoint through that fewer " +
      "independent parties saw, which is what a log showing a split view needs. Allowed, but never silent: the " +
      "check warns.",
    source: "C2SP tlog-policy; issue 41",
    fix:
      "Review the change as you would one of content/_keys.json, and hand relying parties the new policy if they " +
      "use it; nothing to fix if it is intended.",
  },
} satisfies Record<string, Rule>;
