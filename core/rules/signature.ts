/**
 * Rules of a manifest's Profile A signature (core/crypto/profile-a.ts) and its statusRef
 * (core/validate/status-ref.ts), of the keys `_keys.json` pins (scripts/check/keys.ts),
 * and of `manifest-resolver sign`.
 */
import type { Rule } from "./rule.ts";

const SIGN_AGAIN =
  "manifest-resolver sign FILE --key YOUR-KEY.pem --key-ref KEYREF, the keyRef pinned for that key in _keys.json";

export const SIGNATURE_RULES = {
  "signature/invalid": {
    severity: "error",
    summary: "the Ed25519 signature does not verify over the manifest as it is",
    why:
      "The signature covers the JCS canonical bytes of the manifest without signature, " +
      "presentationProof and postQuantumSignature. It fails when the content changed " +
      "after signing, when another key signed it, or when it is not strictly encoded " +
      "(a small-order or non-canonical R, or S not below the group order: forgeries " +
      "that common verifiers accept). Relying parties must reject it.",
    source: "contract 2.6, 5 (item 3); UM v0.4 core §1.6.3, §1.6.4; RFC 8032 §5.1.7",
    fix:
      `If you edited the manifest, sign it again: ${SIGN_AGAIN}. check prints that ` +
      `command, filled in, under the problem.`,
    example:
      "manifest-resolver sign content/people/alice/profile.jsonld --key alice.pem " +
      "--key-ref did:web:alice.example#key-1",
  },
  "signature/value-encoding": {
    severity: "error",
    summary: "signature.value is not the unpadded base64url of a 64-byte Ed25519 signature",
    why:
      "Profile A encodes signatures as base64url without padding (core §1.6.1); " +
      "verifiers must not accept another spelling, since two spellings of one " +
      "signature would make its bytes ambiguous.",
    source: "contract 2.6; UM v0.4 core §1.6.1",
    fix: `Sign the manifest again rather than editing the value: ${SIGN_AGAIN}.`,
  },
  "signature/unpinned-key": {
    severity: "error",
    summary: "the signature's keyRef is not pinned in _keys.json",
    why:
      "Once _keys.json exists the world is closed: a relying party trusts keys, not " +
      "what a manifest embeds (core §1.6.4), so every keyRef must be pinned there, by " +
      "exact string (another letter case, a trailing space or another fragment is " +
      "another keyRef).",
    source: 'UM v0.4 core §1.6.4; README, "Pinned keys"',
    fix:
      'If the key is yours, pin it: add "KEYREF": "SPKI" to _keys.json ' +
      "(manifest-resolver keygen prints the entry; check prints it, filled in, under " +
      "the problem). Otherwise sign with a key that is pinned.",
    example: '{ "did:web:you.example#key-1": "MCowBQYDK2VwAyEA..." }',
  },
  "signature/unverifiable": {
    severity: "error",
    summary: "no key to verify the signature with: none embedded, none pinned",
    why:
      "Without publicKeySpkiB64 and without a pin for its keyRef, the signature cannot " +
      "be verified, and a manifest that cannot be verified must be rejected (core " +
      "§1.6.4, key resolution).",
    source: "UM v0.4 core §1.6.4",
    fix: "Pin the keyRef in _keys.json, or embed the key: manifest-resolver sign embeds it.",
  },
  "signature/key-encoding": {
    severity: "error",
    summary: "the key is not an Ed25519 SubjectPublicKeyInfo in canonical standard base64",
    why:
      "publicKeySpkiB64 (or the pin chosen for the keyRef) is the standard base64 of " +
      "the 44-byte DER SubjectPublicKeyInfo of an Ed25519 key, spelt one way only: a " +
      "decoder ignores stray bits before the padding, so two spellings would otherwise " +
      "name one key.",
    source: "contract 2.6; UM v0.4 core §1.6.2",
    fix:
      "Use the key as manifest-resolver keygen prints it (it starts MCowBQYDK2VwAyEA " +
      "and is 60 characters long), or sign again, which embeds it.",
  },
  "signature/key-mismatch": {
    severity: "error",
    summary: "the embedded key is not the key pinned for the keyRef",
    why:
      "A manifest could name a reputable keyRef while embedding its author's own key " +
      "(key substitution): when the keyRef's key is known, the embedded one must be " +
      "byte-identical to it, or the manifest is rejected (core §1.6.4).",
    source: "UM v0.4 core §1.6.4 (security note)",
    fix:
      "Sign with the pinned key (or drop publicKeySpkiB64: the pin stands in for it). " +
      "If the pin itself changed, review that change to _keys.json.",
  },
  "signature/keyref-mismatch": {
    severity: "error",
    summary: "the embedded key is not the key the keyRef resolves to",
    why:
      "A did:key or did:jwk is its key, so the keyRef's key is known without any " +
      "network; a did:web's key is in its DID document, which a relying party fetches. " +
      "A manifest could name someone else's DID while embedding and signing with its " +
      "author's own key (key substitution): the embedded key must be byte-identical to " +
      'the key the keyRef resolves to, or the manifest is rejected (signatureCheck "invalid", core §1.6.4).',
    source: "UM v0.4 core §1.6.4 (key resolution, step 4; security note); W3C CCG did:key, did:web; did:jwk",
    fix:
      "Sign with the key the keyRef names, or sign under the keyRef of your key: for an " +
      "Ed25519 key, did:key:z6Mk…#z6Mk… made from it, or a did:web whose document lists it " +
      "under assertionMethod.",
  },
  "signature/keyref-malformed": {
    severity: "error",
    summary: "the keyRef is a did:key or did:jwk that names no Ed25519 key",
    why:
      "A did:key or did:jwk keyRef is resolved locally to check the embedded key against " +
      "it (core §1.6.4). One that does not decode to an Ed25519 public key (bad " +
      "base58btc or base64url, another multicodec or key type, a wrong length, a private " +
      '"d", or a fragment naming another key than the DID\'s own) names no key that could ' +
      "have signed under Profile A, so the manifest is refused.",
    source: "UM v0.4 core §1.6.4; W3C CCG did:key §3.1; did:jwk §2",
    fix:
      "Write the keyRef from the signing key: did:key:z6Mk…#z6Mk… (the same value twice), " +
      "or did:jwk:… with the fragment #0.",
  },
  "signature/weak-key": {
    severity: "error",
    summary: "the key is a small-order or non-canonically encoded Ed25519 key",
    why:
      "For such a key, signatures verify without any private key: anyone could sign " +
      "anything with it. Common verifiers accept it, so it is refused before verifying.",
    source: "RFC 8032 §5.1.7; UM v0.4 core §1.6.4",
    fix: "Make a new key with manifest-resolver keygen, pin it, and sign with it.",
  },
  "signature/status-ref-insecure": {
    severity: "error",
    summary: "signature.statusRef is not an https: URL (or http: to a loopback host)",
    why:
      "A status document carries no signature of its own: only its transport protects " +
      'it (EXT-OPT O2.1). Over plain http, anyone on the path could answer "active" ' +
      "for a revoked manifest.",
    source: "EXT-OPT O2.1; UM v0.4 core §1.6.2",
    fix:
      "Use the https: URL of the manifest's status endpoint; manifest-resolver sign " +
      "writes it with --status-base URL or UM_RESOLVER_URL.",
  },
  "signature/status-ref-unusable": {
    severity: "error",
    summary: "signature.statusRef names a URL no client can fetch: credentials in it, or a list URL with a query",
    why:
      "fetch refuses a URL with user:password@, and a status list is fetched at the URL before #index, which " +
      "a query or fragment makes another URL than the list's. A relying party would record the status unchecked, " +
      "a revoked manifest's too. A status list's URL is held to the rule of a resolver's base URL " +
      "(core/http/base-url.ts), as sign --status-base is.",
    source: "EXT-OPT O2.1, O2.4; contract §5",
    fix:
      "Sign the manifest again with --status-base URL (or UM_RESOLVER_URL) set to the resolver's base URL: " +
      "https:, no credentials, query or fragment.",
  },
  "signature/status-ref-local": {
    severity: "error",
    summary: "signature.statusRef is on a local or private address, and the resolver (UM_RESOLVER_URL) is not",
    why:
      "A relying party resolving the manifest at a resolver that is not on a local or private address does not " +
      "ask a statusRef that is (loopback, 0.0.0.0, 10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10, 198.18/15, " +
      "fc00::/7, fe80::/10, an IPv4 address mapped or embedded in IPv6 (NAT64, 6to4), localhost names): a remote party must not aim " +
      "it at its own machine or network. The status would be unchecked for every relying party.",
    source: "EXT-OPT O2.1; UM v0.4 core §1.6.3",
    fix:
      "Sign with the status URL of the deployed resolver (sign --status-base, or UM_RESOLVER_URL). For a " +
      "trial on this machine, set UM_RESOLVER_URL to the local resolver's URL.",
    example: '"statusRef": "https://resolver.example/.well-known/manifest-resolver/status/urn%3Auuid%3A…"',
  },
  "signature/status-ref-missing": {
    severity: "warning",
    summary: "a signed manifest has no signature.statusRef",
    why:
      "A relying party learns that a manifest was revoked or suspended only by asking its statusRef. Without " +
      "one, a suspension never reaches anyone who already holds the manifest, and a revocation reaches only those " +
      "who fetch it from the resolver again: the manifest reads as active everywhere else.",
    source: "EXT-OPT O2.1, O2.3; UM v0.4 core §1.6.2",
    fix:
      "Sign it again with your resolver's URL configured (resolverUrl in manifest-resolver.json, which init " +
      "--resolver-url writes): manifest-resolver sign FILE adds its statusRef. The message gives the command.",
  },
  "signature/status-ref-mismatch": {
    severity: "error",
    summary: "signature.statusRef points at this resolver, but not at this manifest's own status URL",
    why:
      "statusRef is outside the signing input, so anyone can change it without " +
      "breaking the signature: a manifest pointing at another UMID's status would " +
      'borrow its "active" even once itself is revoked.',
    source: "EXT-OPT O2.1; UM v0.4 core §1.6.2",
    fix:
      "Set statusRef to the URL the message names (manifest-resolver sign writes it " +
      "with --status-base URL or UM_RESOLVER_URL), or remove it.",
  },
  "keys/not-ed25519": {
    severity: "error",
    summary: "a _keys.json entry is not an Ed25519 SubjectPublicKeyInfo in canonical base64",
    why:
      "Profile A verifies with Ed25519 only; a pin that is not such a key pins " +
      "nothing, and every manifest signed under its keyRef would fail.",
    source: 'contract 2.6; README, "Pinned keys"',
    fix: "Replace the value with the key as manifest-resolver keygen prints it.",
  },
  "keys/weak-key": {
    severity: "error",
    summary: "a _keys.json entry is a small-order or non-canonically encoded Ed25519 key",
    why:
      "For such a key, signatures verify without any private key: pinning it would let " +
      "anyone sign manifests under its keyRef.",
    source: 'RFC 8032 §5.1.7; README, "Pinned keys"',
    fix: "Make a new key with manifest-resolver keygen, pin it instead, and sign again with it.",
  },
  "keys/did-web-mismatch": {
    severity: "error",
    summary: "check: a pinned did:web keyRef's DID document does not hold the pinned key",
    why:
      "A relying party resolves a did:web keyRef to the key its DID document lists under " +
      "assertionMethod, and rejects a manifest whose key differs (core §1.6.4). A " +
      "document that lists another key, or none for this keyRef, or that is not the " +
      "DID's, makes relying parties reject every manifest signed under it, however well " +
      "it is signed.",
    source: "UM v0.4 core §1.6.4 (key resolution, step 4); W3C CCG did:web",
    fix:
      "Publish the verification method manifest-resolver keygen printed for this key in " +
      "the DID's did.json, with its id under assertionMethod; or pin the key the " +
      "document lists, if the pin is what is out of date.",
  },
  "keys/did-web-unreachable": {
    severity: "warning",
    summary: "check could not have a pinned did:web keyRef's DID document, or one from the DID",
    why:
      "Relying parties who resolve keyRefs cannot confirm keys whose document they " +
      'cannot fetch: their receipts say keyRefResolution "unresolved", and identity ' +
      "stays at Tier 0. The same holds of a document check does not ask for: one on a local or private " +
      "address while the resolver is not on one, which no relying party of that resolver asks either. " +
      "A warning: the network of the machine running check may be what failed.",
    source: "UM v0.4 core §1.6.4 (key resolution, step 4); W3C CCG did:web",
    fix:
      "Check that the document's URL (in the message) answers over https: on a public address, or run check " +
      "again; check --offline asks no DID document at all.",
  },
  "keys/none-pinned": {
    severity: "warning",
    summary: "no _keys.json pins signing keys, so any embedded key is accepted",
    why:
      "Without pins, a manifest signed with any key it embeds verifies: anyone who can " +
      "open a pull request can publish a manifest under your keyRef with their own " +
      "key. A warning; an error under check --strict.",
    source: 'UM v0.4 core §1.6.4; README, "Pinned keys"',
    fix:
      "Pin your keys in content/_keys.json (manifest-resolver keygen --key-ref KEYREF " +
      "prints the file), and protect it with a CODEOWNERS rule.",
    example: '{ "did:web:you.example#key-1": "MCowBQYDK2VwAyEA..." }',
  },
  "keys/did-web-outside-resolver": {
    severity: "warning",
    summary: "a did:web keyRef on the resolver's host has its did.json outside UM_RESOLVER_URL's path",
    why:
      "When UM_RESOLVER_URL's host is a pinned did:web's, build publishes that DID's " +
      "document, so that relying parties resolving the keyRef find the pinned key. A " +
      "did:web document's path starts at the origin's root (did:web:example.com is at " +
      "/.well-known/did.json, did:web:example.com:users:alice at /users/alice/did.json), " +
      "while a resolver at a base path answers only below it: this document cannot be " +
      "served by the resolver, and is not published.",
    source: 'W3C CCG did:web, "Read (Resolve)"; UM v0.4 core §1.6.4 (step 4)',
    fix:
      "Serve that did.json from the origin yourself (manifest-resolver keygen prints the " +
      "verification method to list), or pin a DID whose path is under the resolver's " +
      "(did:web:example.com:resolver for a resolver at https://example.com/resolver/), " +
      "or serve the resolver at the origin's root.",
  },
  "keys/did-web-clash": {
    severity: "error",
    summary: "two pinned did:web DIDs on the resolver's host have their did.json at one URL",
    why:
      "A did:web document's id must be the DID it was resolved for. DIDs that differ " +
      "only in the letter case of their host, or in a port that is the default, map to " +
      "the same URL: one document there cannot serve both, and the keys of one of them " +
      "could never be resolved.",
    source: 'W3C CCG did:web, "Read (Resolve)"',
    fix: "Spell every keyRef of that DID alike in _keys.json and the manifests (sign them again with it).",
  },
  "keys/did-web-unreadable": {
    severity: "error",
    summary: "the did:web document the build would publish is one relying parties refuse",
    why:
      "The build publishes, for a DID on the resolver's host, one did.json listing every key pinned under it. " +
      "A relying party reads at most 64 KiB of a DID document, and at most 1,000 items in an array, and " +
      "refuses a larger one whole: no key of that DID could then be resolved. check reads the document back " +
      "with the client's reader before the build publishes it.",
    source: 'W3C CCG did:web, "Read (Resolve)"; DID Core §5.2',
    fix:
      "Pin fewer keys under that DID (about 300 fit): retire keys no manifest is signed with, or put some " +
      "under a DID of another path (did:web:host:path).",
  },
  "sign/not-object": {
    severity: "error",
    summary: "the file to sign is not a JSON object",
    why: "A manifest is a JSON object (contract 2.1); there is no signing input for another value.",
    source: "contract 2.1",
    fix: "Sign a manifest file; manifest-resolver new writes a skeleton to start from.",
  },
  "sign/key-not-pinned": {
    severity: "error",
    summary: "the keyRef given to sign is pinned to another key",
    why:
      "A manifest signed with another key than the one _keys.json pins for its keyRef " +
      "would fail every check (signature/key-mismatch); sign refuses rather than write " +
      "it.",
    source: 'README, "Pinned keys"',
    fix: "Sign with the key pinned for that keyRef, or with --key-ref naming the keyRef of your key.",
  },
} satisfies Record<string, Rule>;
