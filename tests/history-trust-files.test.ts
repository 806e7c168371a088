/**
 * `check --base REV` over the other files that carry trust (issue 37, defects 11 and 13):
 * the status list allocation (`_status/`), whose entries copies of manifests name in their
 * statusRef, outside the signature; `_keys.json`, which closes the world of keys;
 * `_unsigned.json`, which lets a file through with no verifiable signature at all; and
 * `_resolvers.json`, the peers relying parties ask for a manifest's status (the most
 * restrictive answer wins).
 */
import assert from "node:assert/strict";
import { createPublicKey, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { listStatusRef, statusListUrl } from "../core/status-list/list-entry-ref.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { FIXTURE_KEY_REF, manifestFor, newKey, optInDigest, pinning, v01Payload } from "./support/fixture-content.ts";
import { assertErrors, CONTENT, historyRepository } from "./support/history-repository.ts";
import { printedProblems } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-history-trust-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const key = newKey();
const SIGNED_AT = new Date("2026-01-01T00:00:00Z");
const LIST_ID = "0a1b2c3d4e5f6071";
const LIST_URL = statusListUrl("https://resolver.example", LIST_ID);
const LIST_FILE = `_status/${LIST_ID}.json`;

/** A manifest for `umid` signed with `signer` under `keyRef`; its statusRef names `index` of the list, if given. */
function manifest(umid: string, index?: number, signer: KeyObject = key, keyRef = FIXTURE_KEY_REF) {
  const signature = signProfileA(manifestFor(umid), signer, keyRef, SIGNED_AT);
  return {
    ...manifestFor(umid),
    signature: index === undefined ? signature : { ...signature, statusRef: listStatusRef(LIST_URL, index) },
  };
}

/** The list's file, its entries sorted by index as sign writes them. */
const list = (...entries: [number, string][]) => ({ url: LIST_URL, entries: entries.sort(([a], [b]) => a - b) });

const spki = (k: KeyObject) => createPublicKey(k).export({ format: "der", type: "spki" }).toString("base64");

/** urn:gone is revoked and its file kept; urn:a and urn:b are active; each has its entry. */
const ROUTES = { revoked: [{ umid: "urn:gone", revokedAt: "2026-01-02T00:00:00Z" }] };
const allocatedContent = (): Record<string, unknown> => ({
  "_keys.json": pinning(key),
  "_routes.json": ROUTES,
  [LIST_FILE]: list([5, "urn:gone"], [9, "urn:a"], [17, "urn:b"]),
  "gone.json": manifest("urn:gone", 5),
  "a.json": manifest("urn:a", 9),
  "b.json": manifest("urn:b", 17),
});

const repository = (files: Record<string, unknown> = allocatedContent()) => historyRepository(scratch, files);

const THEN = (base: string) => `${CONTENT}/${LIST_FILE}@${base}`;
const NOW_FILE = `${CONTENT}/${LIST_FILE}`;

describe("check --base: the status list allocation is history (defect 11)", () => {
  it("passes an allocation that only grew", async () => {
    const repo = repository();
    repo.write("c.json", manifest("urn:c", 40));
    repo.write(LIST_FILE, list([5, "urn:gone"], [9, "urn:a"], [17, "urn:b"], [40, "urn:c"]));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  it("refuses a revoked manifest's file deleted and its entry dropped: the list would say active", async () => {
    const repo = repository();
    repo.remove("gone.json");
    repo.write(LIST_FILE, list([9, "urn:a"], [17, "urn:b"]));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    // Placed where the entry was, naming it, and what the list would publish there instead.
    assertErrors(result.stdout, [
      [THEN(repo.base), "history/status-entry-unrevoked", ["entry 5 ", LIST_ID, '"urn:gone"', "0x0"]],
    ]);
    assert.equal(printedProblems(result.stdout)[0]?.message.includes("/entries/0"), true, result.stdout);
  });

  it("refuses a revoked UMID moved to another index, its copy's statusRef edited to follow", async () => {
    const repo = repository();
    repo.write("gone.json", manifest("urn:gone", 33));
    repo.write(LIST_FILE, list([9, "urn:a"], [17, "urn:b"], [33, "urn:gone"]));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [
      [NOW_FILE, "history/status-entry-moved", ['"urn:gone"', "entry 5 ", "entry 33 "]],
      [THEN(repo.base), "history/status-entry-unrevoked", ["entry 5 ", '"urn:gone"', "0x0"]],
    ]);
  });

  it("refuses a revoked UMID's entry given to another UMID", async () => {
    const repo = repository();
    repo.remove("gone.json");
    repo.write("b.json", manifest("urn:b", 5));
    repo.write(LIST_FILE, list([5, "urn:b"], [9, "urn:a"]));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [
      [NOW_FILE, "history/status-entry-unrevoked", ["entry 5 ", '"urn:gone"', '"urn:b"', "active (0x0)"]],
      [NOW_FILE, "history/status-entry-moved", ['"urn:b"', "entry 17 ", "entry 5 "]],
    ]);
  });

  it("refuses an active entry freed: a redirected UMID's copies would read active, not undefined", async () => {
    const repo = repository();
    repo.remove("a.json");
    repo.write("_routes.json", { ...ROUTES, redirects: [{ umid: "urn:a", location: "https://elsewhere.example/a" }] });
    repo.write(LIST_FILE, list([5, "urn:gone"], [17, "urn:b"]));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [[THEN(repo.base), "history/status-entry-freed", ["entry 9 ", '"urn:a"', "0x0"]]]);
  });

  it("refuses a list whose file is gone, and names each revoked entry it held", async () => {
    const repo = repository();
    repo.remove(LIST_FILE);
    repo.write("a.json", manifest("urn:a"));
    repo.write("b.json", manifest("urn:b"));
    repo.write("gone.json", manifest("urn:gone"));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [
      [THEN(repo.base), "history/status-entry-freed", [LIST_ID, LIST_URL]],
      [THEN(repo.base), "history/status-entry-unrevoked", ["entry 5 ", '"urn:gone"']],
    ]);
  });

  it("says nothing of history while a list's file is not readable now: its own error comes first", async () => {
    const repo = repository();
    repo.write(LIST_FILE, "{not json");
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    const rules = printedProblems(result.stdout).map((p) => p.rule);
    assert.ok(rules.length > 0 && rules.every((rule) => !rule.startsWith("history/")), result.stdout);
  });

  /** `check --base` of a change that moves the list to `url`, with every copy's statusRef edited to follow. */
  const listMovedTo = async (url: string) => {
    const repo = repository();
    repo.write(LIST_FILE, { ...list([5, "urn:gone"], [9, "urn:a"], [17, "urn:b"]), url });
    for (const [file, umid, index] of [
      ["a.json", "urn:a", 9],
      ["b.json", "urn:b", 17],
      ["gone.json", "urn:gone", 5],
    ] as const)
      repo.write(file, {
        ...manifest(umid),
        signature: { ...manifest(umid).signature, statusRef: listStatusRef(url, index) },
      });
    return { base: repo.base, result: await repo.check("--base", repo.base) };
  };

  it("refuses a list moved to another URL: the statusRefs of copies name the old one", async () => {
    const moved = statusListUrl("https://other.example", LIST_ID);
    const { base, result } = await listMovedTo(moved);
    assert.equal(result.status, 1, result.stdout);
    const rules = printedProblems(result.stdout).filter((p) => p.severity === "error");
    assert.deepEqual(
      rules.map((p) => [p.file, p.rule]),
      [
        [NOW_FILE, "history/status-entry-freed"],
        [THEN(base), "history/status-entry-unrevoked"],
      ],
      result.stdout,
    );
    assert.ok(rules[0]!.message.includes(moved), rules[0]!.message);
  });

  // Found by the attack pass: the rule compared URLs as parsed, and a client compares the list's id as written.
  for (const respelt of [
    "https://RESOLVER.example",
    "https://resolver.example:443",
    "https://resolver.example.",
    "https://resolver.example/x/..",
  ])
    it(`refuses a list's url spelt anew (${respelt}): copies compare the list's id to the letter`, async () => {
      const { result } = await listMovedTo(statusListUrl(respelt, LIST_ID));
      assert.equal(result.status, 1, result.stdout);
      const rules = printedProblems(result.stdout)
        .filter((p) => p.severity === "error")
        .map((p) => p.rule);
      assert.ok(rules.includes("history/status-entry-freed"), result.stdout);
      assert.ok(rules.includes("history/status-entry-unrevoked"), result.stdout);
    });
});

describe("check --base: _keys.json is history (defect 13)", () => {
  const other = newKey();
  const OTHER_REF = "did:web:other.example#key-1";
  const keyed = (): Record<string, unknown> => ({
    "_keys.json": pinning(key),
    "a.json": manifest("urn:a"),
    "b.json": manifest("urn:b"),
  });

  it("refuses _keys.json deleted, a manifest signed with another key added", async () => {
    const repo = repository(keyed());
    repo.remove("_keys.json");
    repo.write("c.json", manifest("urn:c", undefined, other));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [[`${CONTENT}/_keys.json@${repo.base}`, "history/keys-removed", [repo.base]]]);
  });

  it("refuses a pin removed that manifests at REV were signed under, and lets an unused one go", async () => {
    const repo = repository({ ...keyed(), "_keys.json": { ...pinning(key), "did:web:unused.example#k": spki(other) } });
    repo.write("_keys.json", { [OTHER_REF]: spki(other) });
    repo.write("a.json", manifest("urn:a", undefined, other, OTHER_REF));
    repo.write("b.json", manifest("urn:b", undefined, other, OTHER_REF));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assertErrors(result.stdout, [
      [`${CONTENT}/_keys.json`, "history/pin-removed", [JSON.stringify(FIXTURE_KEY_REF), `${CONTENT}/a.json@`]],
    ]);
  });

  it("warns of a key rotation, naming the keyRef, and lists it first in the summary", async () => {
    const repo = repository(keyed());
    repo.write("_keys.json", pinning(other));
    repo.write("a.json", manifest("urn:a", undefined, other));
    repo.write("b.json", manifest("urn:b", undefined, other));
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const warnings = printedProblems(result.stdout).filter((p) => p.severity === "warning");
    assert.deepEqual(
      warnings.map((p) => [p.file, p.line, p.rule]),
      // At the pin, on the second line of the file.
      [[`${CONTENT}/_keys.json`, 2, "history/pin-changed"]],
      result.stdout,
    );
    assert.ok(warnings[0]!.message.includes(JSON.stringify(FIXTURE_KEY_REF)), warnings[0]!.message);
    // Right after the heading, before anything else: the keyRef, the key before and the key now.
    const lines = readFileSync(join(repo.root, "summary.md"), "utf8").split("\n");
    const first = lines.slice(1).findIndex((line) => line !== "") + 1;
    assert.match(lines[first]!, /history\/pin-changed/);
    assert.ok(
      lines.some((line) => line === `| \`${FIXTURE_KEY_REF}\` | \`${spki(key)}\` | \`${spki(other)}\` |`),
      lines.join("\n"),
    );
  });

  // Found by the attack pass: a keyRef pinned anew, to an attacker's key, with an existing UMID signed under it.
  it("warns of a keyRef pinned anew, naming it, and lists it first in the summary", async () => {
    const repo = repository(keyed());
    repo.write("_keys.json", { ...pinning(key), [OTHER_REF]: spki(other) });
    repo.write("a.json", manifest("urn:a", undefined, other, OTHER_REF));
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const warnings = printedProblems(result.stdout).filter((p) => p.severity === "warning");
    assert.deepEqual(
      warnings.map((p) => [p.file, p.rule]),
      [[`${CONTENT}/_keys.json`, "history/pin-added"]],
      result.stdout,
    );
    assert.ok(warnings[0]!.message.includes(JSON.stringify(OTHER_REF)), warnings[0]!.message);
    const lines = readFileSync(join(repo.root, "summary.md"), "utf8").split("\n");
    const first = lines.slice(1).findIndex((line) => line !== "") + 1;
    assert.match(lines[first]!, /history\/pin-added/);
    assert.ok(lines.includes(`| \`${OTHER_REF}\` | none | \`${spki(other)}\` |`), lines.join("\n"));
  });

  it("says nothing of keys left as they were, or pinned where none were", async () => {
    const unpinned = repository({ "a.json": manifest("urn:a") });
    unpinned.write("_keys.json", pinning(key));
    const pinned = await unpinned.check("--base", unpinned.base);
    assert.equal(pinned.status, 0, pinned.stdout);
    assert.deepEqual(printedProblems(pinned.stdout), []);
    const kept = repository(keyed());
    const result = await kept.check("--base", kept.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(printedProblems(result.stdout), []);
    assert.doesNotMatch(readFileSync(join(kept.root, "summary.md"), "utf8"), /pin-changed/);
  });
});

describe("check --base: _unsigned.json is history", () => {
  const v01 = v01Payload;
  const digestOf = optInDigest;
  const NOW_UNSIGNED = `${CONTENT}/_unsigned.json`;
  const signedOnly = (): Record<string, unknown> => ({ "_keys.json": pinning(key), "a.json": manifest("urn:a") });
  const optedIn = (): Record<string, unknown> => ({
    ...signedOnly(),
    "old.json": v01(),
    "_unsigned.json": { "old.json": digestOf(v01()) },
  });
  const warningsOf = (stdout: string) => printedProblems(stdout).filter((p) => p.severity === "warning");

  it("warns of a new opt-in, naming the file and its digest, at its entry", async () => {
    const repo = repository(signedOnly());
    repo.write("old.json", v01());
    repo.write("_unsigned.json", { "old.json": digestOf(v01()) });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    const warnings = warningsOf(result.stdout);
    assert.deepEqual(
      warnings.map((p) => [p.file, p.line, p.rule]),
      [[NOW_UNSIGNED, 2, "history/unsigned-opt-in"]],
      result.stdout,
    );
    for (const value of ['"old.json"', digestOf(v01()), repo.base])
      assert.ok(warnings[0]!.message.includes(value), warnings[0]!.message);
  });

  it("warns of an opt-in whose digest changed, naming both digests", async () => {
    const repo = repository(optedIn());
    const edited = v01("did:web:mallory.example");
    repo.write("old.json", edited);
    repo.write("_unsigned.json", { "old.json": digestOf(edited) });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    const warnings = warningsOf(result.stdout);
    assert.deepEqual(
      warnings.map((p) => [p.file, p.line, p.rule]),
      [[NOW_UNSIGNED, 2, "history/unsigned-opt-in"]],
      result.stdout,
    );
    for (const value of ['"old.json"', digestOf(v01()), digestOf(edited)])
      assert.ok(warnings[0]!.message.includes(value), warnings[0]!.message);
  });

  it("lists opt-ins first in the summary, after a key rotation and before the table", async () => {
    const other = newKey();
    const repo = repository(signedOnly());
    repo.write("_keys.json", pinning(other));
    repo.write("a.json", manifest("urn:a", undefined, other));
    repo.write("old.json", v01());
    repo.write("_unsigned.json", { "old.json": digestOf(v01()) });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const lines = readFileSync(join(repo.root, "summary.md"), "utf8").split("\n");
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const first = lines.slice(1).findIndex((line) => line !== "") + 1;
    assert.match(lines[first]!, /history\/pin-changed/);
    const optIns = at(/history\/unsigned-opt-in/);
    assert.ok(first < optIns && optIns < at(/^Compared with /), lines.join("\n"));
    // The file, the digest before (none: a new opt-in) and the digest now.
    assert.ok(lines.includes(`| \`old.json\` | none | \`${digestOf(v01())}\` |`), lines.join("\n"));
  });

  it("lists a lone opt-in right after the heading", async () => {
    const repo = repository(signedOnly());
    repo.write("old.json", v01());
    repo.write("_unsigned.json", { "old.json": digestOf(v01()) });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const lines = readFileSync(join(repo.root, "summary.md"), "utf8").split("\n");
    const first = lines.slice(1).findIndex((line) => line !== "") + 1;
    assert.match(lines[first]!, /history\/unsigned-opt-in/);
  });

  it("says nothing of opt-ins left as they were, or removed", async () => {
    const kept = repository(optedIn());
    const result = await kept.check("--base", kept.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(printedProblems(result.stdout), []);
    assert.doesNotMatch(readFileSync(join(kept.root, "summary.md"), "utf8"), /unsigned-opt-in/);
    // The payload re-issued signed, its opt-in gone with the file: stricter than before.
    const removed = repository(optedIn());
    removed.remove("_unsigned.json");
    removed.write("old.json", manifest("urn:legacy:v01"));
    const stricter = await removed.check("--base", removed.base);
    assert.equal(stricter.status, 0, stricter.stdout);
    assert.deepEqual(printedProblems(stricter.stdout), []);
  });
});

describe("check --base: _resolvers.json is history", () => {
  const peer = (name: string, url = `https://${name}.example/`) => ({ url, did: `did:web:${name}.example` });
  const discovery = (...peers: { url: string; did: string }[]) => ({ resolver: "did:web:resolver.example", peers });
  const federated = (...peers: { url: string; did: string }[]): Record<string, unknown> => ({
    "_keys.json": pinning(key),
    "a.json": manifest("urn:a"),
    "_resolvers.json": discovery(...peers),
  });
  const NOW_RESOLVERS = `${CONTENT}/_resolvers.json`;
  const warningsOf = (stdout: string) => printedProblems(stdout).filter((p) => p.severity === "warning");
  /** The warnings, each as its file, line and rule; and that each names every value of `named`, in order. */
  const assertWarnings = (stdout: string, expected: [file: string, line: number | undefined, named: string[]][]) => {
    const warnings = warningsOf(stdout);
    assert.deepEqual(
      warnings.map((p, i) => [
        p.file,
        p.line,
        p.rule,
        (expected[i]?.[2] ?? []).filter((value) => !p.message.includes(value)),
      ]),
      expected.map(([file, line]) => [file, line, "history/peers-changed", []]),
      stdout,
    );
  };

  it("warns of a peer added, naming its url and did, at its entry", async () => {
    const repo = repository(federated(peer("alpha")));
    repo.write("_resolvers.json", discovery(peer("alpha"), peer("mallory")));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    // At /peers/1, on the eighth line of the file.
    assertWarnings(result.stdout, [
      [NOW_RESOLVERS, 8, ["https://mallory.example/", "did:web:mallory.example", repo.base]],
    ]);
  });

  it("warns of a peer removed, at its entry in the file at REV", async () => {
    const repo = repository(federated(peer("alpha"), peer("beta")));
    repo.write("_resolvers.json", discovery(peer("alpha")));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assertWarnings(result.stdout, [
      [`${NOW_RESOLVERS}@${repo.base}`, 8, ["https://beta.example/", "did:web:beta.example"]],
    ]);
  });

  it("warns of a peer's url changed, naming both urls and its did", async () => {
    const repo = repository(federated(peer("alpha")));
    repo.write("_resolvers.json", discovery(peer("alpha", "https://alpha.mallory.example/")));
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assertWarnings(result.stdout, [
      [NOW_RESOLVERS, 4, ["https://alpha.example/", "https://alpha.mallory.example/", "did:web:alpha.example"]],
    ]);
  });

  it("warns of a peer's did changed, and of the resolver's", async () => {
    const repo = repository(federated(peer("alpha")));
    repo.write("_resolvers.json", {
      resolver: "did:web:mallory.example",
      peers: [{ url: "https://alpha.example/", did: "did:web:mallory.example" }],
    });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assertWarnings(result.stdout, [
      [NOW_RESOLVERS, 2, ["did:web:resolver.example", "did:web:mallory.example"]],
      [NOW_RESOLVERS, 4, ["https://alpha.example/", "did:web:alpha.example", "did:web:mallory.example"]],
    ]);
  });

  it("warns of the document deleted, naming each peer it listed", async () => {
    const repo = repository(federated(peer("alpha"), peer("beta")));
    repo.remove("_resolvers.json");
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assertWarnings(result.stdout, [
      [
        `${NOW_RESOLVERS}@${repo.base}`,
        undefined,
        ["https://alpha.example/", "did:web:alpha.example", "https://beta.example/", "did:web:beta.example"],
      ],
    ]);
  });

  it("lists peers in the summary after the key pins and the opt-ins, before the table", async () => {
    const other = newKey();
    const v01 = v01Payload();
    const repo = repository(federated(peer("alpha"), peer("beta")));
    repo.write("_keys.json", pinning(other));
    repo.write("a.json", manifest("urn:a", undefined, other));
    repo.write("old.json", v01);
    repo.write("_unsigned.json", {
      "old.json": optInDigest(v01),
    });
    repo.write("_resolvers.json", discovery(peer("alpha", "https://alpha.mallory.example/"), peer("mallory")));
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const lines = readFileSync(join(repo.root, "summary.md"), "utf8").split("\n");
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const first = lines.slice(1).findIndex((line) => line !== "") + 1;
    assert.match(lines[first]!, /history\/pin-changed/);
    const optIns = at(/history\/unsigned-opt-in/);
    const peers = at(/history\/peers-changed/);
    assert.ok(first < optIns && optIns < peers && peers < at(/^Compared with /), lines.join("\n"));
    // Each peer by its url: its did before and now, none where it was not.
    for (const row of [
      "| `https://alpha.example/` | `did:web:alpha.example` | none |",
      "| `https://alpha.mallory.example/` | none | `did:web:alpha.example` |",
      "| `https://beta.example/` | `did:web:beta.example` | none |",
      "| `https://mallory.example/` | none | `did:web:mallory.example` |",
    ])
      assert.ok(lines.slice(peers, at(/^Compared with /)).includes(row), `${row}\n${lines.join("\n")}`);
  });

  it("says nothing of history while the document is refused now: its own error comes first", async () => {
    const repo = repository(federated(peer("alpha")));
    repo.write("_resolvers.json", { ...discovery(peer("mallory")), extra: true });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1, result.stdout);
    assert.deepEqual(
      printedProblems(result.stdout).map((p) => [p.file, p.rule]),
      [[NOW_RESOLVERS, "resolvers/bad-document"]],
      result.stdout,
    );
  });

  it("says nothing of a document left as it was, or of none at either end", async () => {
    const kept = repository(federated(peer("alpha"), peer("beta")));
    const result = await kept.check("--base", kept.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(printedProblems(result.stdout), []);
    assert.doesNotMatch(readFileSync(join(kept.root, "summary.md"), "utf8"), /peers-changed/);
    const none = repository({ "_keys.json": pinning(key), "a.json": manifest("urn:a") });
    const nothing = await none.check("--base", none.base, "--summary", "summary.md");
    assert.equal(nothing.status, 0, nothing.stdout);
    assert.deepEqual(printedProblems(nothing.stdout), []);
    assert.doesNotMatch(readFileSync(join(none.root, "summary.md"), "utf8"), /peers-changed/);
  });
});

describe("check --base: manifest-resolver.json is history", () => {
  const STATUS_LIST_KEY = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK";
  const settingsWarnings = (stdout: string) =>
    printedProblems(stdout)
      .filter((p) => p.rule === "history/settings-changed")
      .map((p) => [p.file, p.line, p.severity, p.message.split(" ")[0]]);

  it("warns of each trust-bearing setting changed, set or unset, at its member; keysDir is not compared", async () => {
    const before = { resolverUrl: "https://old.example", keysDir: "/keys/a", statusListKey: STATUS_LIST_KEY };
    const repo = historyRepository(
      scratch,
      { "_keys.json": pinning(key), "a.json": manifestFor("urn:a") },
      { "manifest-resolver.json": `${JSON.stringify(before, null, 2)}\n` },
    );
    const same = await repo.check("--base", repo.base);
    assert.deepEqual(settingsWarnings(same.stdout), [], same.stdout);
    const now = { resolverUrl: "https://new.example", keysDir: "/keys/b", logOrigin: "new.example/log" };
    writeSettings(repo.root, now);
    const result = await repo.check("--base", repo.base);
    assert.deepEqual(
      settingsWarnings(result.stdout),
      [
        ["manifest-resolver.json", 1, "warning", "statusListKey"],
        ["manifest-resolver.json", 2, "warning", "resolverUrl"],
        ["manifest-resolver.json", 4, "warning", "logOrigin"],
      ],
      result.stdout,
    );
  });
});

/** Writes the repository's settings file, two-space indented, as init does. */
function writeSettings(root: string, settings: Record<string, unknown>): void {
  writeFileSync(join(root, "manifest-resolver.json"), `${JSON.stringify(settings, null, 2)}\n`);
}
