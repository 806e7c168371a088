/**
 * Rules of status lists (issue 27; EXT-OPT O2.4, VC Bitstring Status List): the allocation kept in
 * `content/_status/` (scripts/check/status-allocation.ts), the statusRefs of manifests against it, the lists the
 * build publishes (scripts/plan/status-lists.ts), and the discovery document `_resolvers.json` (EXT-OPT O5).
 */
import type { Rule } from "./rule.ts";

export const STATUS_LIST_RULES = {
  "status-list/bad-allocation": {
    severity: "error",
    summary: "a file of content/_status/ is not a status list allocation",
    why:
      "The build derives every published list from these files, and sign allocates new entries in them: a file " +
      "it cannot read would publish a list without its entries, and every manifest in it would read as active.",
    source: "VC Bitstring Status List §2.1; EXT-OPT O2.4",
    fix:
      'Restore the file from version control. Each is named <listId>.json and holds {"url": ..., "entries": ' +
      "[[index, UMID], ...]}; manifest-resolver sign --status-list writes them.",
    example:
      '{\n  "url": "https://resolver.example/.well-known/manifest-resolver/status-list/3f9c...",\n' +
      '  "entries": [\n    [17, "urn:uuid:..."]\n  ]\n}',
  },
  "status-list/index-out-of-range": {
    severity: "error",
    summary: "a status list index lies outside its list (0 to 131071)",
    why:
      "A list holds 131,072 entries (the Recommendation's minimum, for herd privacy): an entry past its end " +
      "does not exist, so a relying party reading it finds no status, or the list is refused.",
    source: "VC Bitstring Status List §2.1, §3.2",
    fix: "Sign the manifest again with --status-list: it is given an index that lies in its list.",
  },
  "status-list/duplicate-index": {
    severity: "error",
    summary: "one status list index is allocated twice",
    why:
      "An entry holds one status: two UMIDs on one index would share it, so revoking one would revoke the other, " +
      "and reinstating one would reinstate both.",
    source: "VC Bitstring Status List §2.1",
    fix: "Keep the entry of the UMID whose manifest's statusRef names this index; sign the other again.",
  },
  "status-list/duplicate-umid": {
    severity: "error",
    summary: "a UMID has two entries in content/_status/",
    why:
      "A UMID's status is published at one entry: with two, the build would set both, and a manifest pointing at " +
      "either would be read alike, but an entry is never reused, so one of them is lost for nothing.",
    source: "VC Bitstring Status List §2.1",
    fix: "Keep the entry the UMID's manifest's statusRef names; remove the other.",
  },
  "status-list/url-mismatch": {
    severity: "error",
    summary: "a status list's url is not where this resolver publishes it",
    why:
      "A list is published at <UM_RESOLVER_URL>/.well-known/manifest-resolver/status-list/<listId>, its file's " +
      "name: statusRefs naming another url would send relying parties to a list this resolver does not serve.",
    source: "VC Bitstring Status List §2.1; EXT-OPT O2.4",
    fix:
      "Set the url to the one the message names (or UM_RESOLVER_URL to the resolver the list belongs to); sign " +
      "the list's manifests again if the url changed.",
  },
  "status-list/unusable-url": {
    severity: "error",
    summary: "a status list's url in content/_status/ carries credentials, a query or a fragment, or is not https:",
    why:
      "A relying party fetches the list at the URL a statusRef names before its #index: one with user:password@ " +
      "is refused by fetch, and a query or fragment makes it another URL than <base>/.well-known/" +
      "manifest-resolver/status-list/<listId>. Every manifest pointing there would read unchecked, a revoked one " +
      "too. The same rule as a resolver's base URL (core/http/base-url.ts), which sign --status-base follows, " +
      "and statusRefs into a list (signature/status-ref-unusable).",
    source: "VC Bitstring Status List §2.1; EXT-OPT O2.4; contract §5",
    fix:
      "Set the list's url to the resolver's base URL (https:, no credentials, query or fragment) followed by its " +
      "list path, and sign its manifests again with --status-list so that their statusRefs follow.",
  },
  "status-list/unallocated-list": {
    severity: "error",
    summary: "a statusRef points into a list of this resolver that content/_status/ does not allocate",
    why:
      "The build publishes only the lists content/_status/ allocates: a statusRef into any other list would be " +
      "answered 404, and a relying party could not check the manifest's status.",
    source: "EXT-OPT O2.4; issue 27",
    fix: "Sign the manifest again with --status-list, which allocates its entry, or restore content/_status/.",
  },
  "status-list/borrowed-index": {
    severity: "error",
    summary: "a statusRef names a status list entry that is not allocated to its manifest's UMID",
    why:
      "statusRef is outside the signing input: a manifest pointing at another UMID's entry (or at an entry " +
      'allocated to none) would borrow its "active", even once itself is revoked.',
    source: "EXT-OPT O2.1, O2.4; UM v0.4 core §1.6.2",
    fix: "Sign the manifest again with --status-list: it keeps its own entry, or is given one.",
  },
  "status-list/unsigned": {
    severity: "warning",
    summary: "the status lists are published without a proof: UM_STATUS_LIST_KEY is not set",
    why:
      "A relying party that pins the list's key checks its eddsa-jcs-2022 proof; without one, it can only trust " +
      "the list by the origin that serves it.",
    source: "VC Bitstring Status List §3.1; VC Data Integrity EdDSA Cryptosuites (eddsa-jcs-2022)",
    fix:
      "Set UM_STATUS_LIST_KEY to an Ed25519 private key (PEM text, or the path of a PEM file; keygen makes one) " +
      "in the build's environment.",
  },
  "resolvers/bad-document": {
    severity: "error",
    summary: "content/_resolvers.json is not a discovery document",
    why:
      "The build publishes it at /.well-known/um-resolvers, where relying parties find this resolver's DID and " +
      "its peers for federated status. check reads it with the reader every client uses " +
      "(core/client/resolvers-document.ts), and a client refuses a document with any fault whole: a peer without a " +
      "secure base URL or a DID could not be asked or named; more than 16 peers would each be asked at once; a " +
      "peer on a local or private address, from a resolver that is not on one, would aim the client at its " +
      "own machine or network.",
    source: "EXT-OPT O5",
    fix:
      'Make it {"resolver": "<this resolver\'s DID>", "peers": [{"url": "https://peer.example/", "did": ' +
      '"did:web:peer.example"}]}, with at most 16 peers, each on a public address. For a trial on this ' +
      "machine, set UM_RESOLVER_URL to the local resolver's URL.",
    example:
      '{ "resolver": "did:web:resolver.example", "peers": [ { "url": "https://peer.example/", "did": ' +
      '"did:web:peer.example" } ] }',
  },
} satisfies Record<string, Rule>;
