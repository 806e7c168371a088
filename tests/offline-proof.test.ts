/**
 * Offline proofs (issue 41, section 4): a UMID's latest entry as a C2SP tlog-proof made from the files a log serves
 * (core/tlog/latest-proof.ts), checked with no network under a policy (core/client/offline-proof.ts), by the library
 * and by `manifest-resolver evaluate FILE --proof PROOF --log-policy POLICY`: the latest body accepted, a superseded
 * one refused, a quorum of fresh cosignatures required.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verifyOfflineProof } from "../core/client/offline-proof.ts";
import { canonicalize } from "../core/crypto/jcs.ts";
import { cosign } from "../core/tlog/cosignature.ts";
import { latestProof } from "../core/tlog/latest-proof.ts";
import { keyOnlyPolicy, type LogPolicy, parseLogPolicy } from "../core/tlog/log-policy.ts";
import { formatNote, parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey, parseVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../core/tlog/note-signature.ts";
import { formatTlogProof, parseTlogProof } from "../core/tlog/tlog-proof.ts";
import { type LogScratch, logScratch } from "./support/log-content.ts";
import { publishedLogFiles } from "./support/log-server.ts";

const NOW = Date.parse("2026-12-01T00:00:00Z");
const NOW_SECONDS = NOW / 1000;
const DAY = 24 * 60 * 60;
/** A quorum of both witnesses. */
const BOTH = "group both all W1 W2\nquorum both";

let scratch: LogScratch;
let content: string;
let verifier: string;
let witnesses: NoteSigner[];
/** The body served for urn:a before the change, its proof then, and the same after. */
let before1: { body: Uint8Array; files: Map<string, Uint8Array> };
let after2: { body: Uint8Array; files: Map<string, Uint8Array> };

/** The body the resolver serves for the manifest in `file`: its JCS. */
function servedBody(file: string): Uint8Array {
  return new TextEncoder().encode(canonicalize(JSON.parse(readFileSync(file, "utf8"))));
}

/** The proof of `umid` from the log files `files`, with their checkpoint as given. */
async function proofOf(files: Map<string, Uint8Array>, umid = "urn:a"): Promise<string> {
  const proof = await latestProof({ read: async (path) => files.get(path) }, umid);
  assert.ok(proof, `a proof of ${umid}`);
  return proof;
}

/** `files` with their checkpoint cosigned by `signers` at `timestamps` (seconds). */
async function cosigned(
  files: Map<string, Uint8Array>,
  signers: readonly NoteSigner[],
  timestamps: readonly number[],
): Promise<Map<string, Uint8Array>> {
  const note = parseNote(files.get("checkpoint")!)!;
  const lines = await Promise.all(signers.map((signer, i) => cosign(note.text, signer, timestamps[i]!)));
  const withCosignatures = formatNote({ text: note.text, signatures: [...note.signatures, ...lines] });
  return new Map([...files, ["checkpoint", new TextEncoder().encode(withCosignatures)]]);
}

function policyText(quorum: string): string {
  const witnessLines = witnesses.map(
    (signer, i) => `witness W${i + 1} ${formatVerifierKey(signer.name, signer.publicKey, COSIGNATURE_TYPE)}`,
  );
  return [`log ${verifier}`, ...witnessLines, quorum, ""].join("\n");
}

function policy(quorum: string): LogPolicy {
  const parsed = parseLogPolicy(policyText(quorum));
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.policy;
}

before(async () => {
  scratch = logScratch("offline-proof-");
  content = scratch.content("site");
  scratch.publish(content, "a.json", "urn:a", { name: "first" });
  scratch.publish(content, "b.json", "urn:b");
  assert.equal((await scratch.cli("log", "--key", scratch.logKey, "--content", content)).status, 0);
  verifier = readFileSync(join(content, "_log", "verifier"), "utf8").trim();
  before1 = { body: servedBody(join(content, "a.json")), files: await publishedLogFiles(join(content, "_log")) };
  scratch.publish(content, "a.json", "urn:a", { name: "second" });
  assert.equal((await scratch.cli("log", "--key", scratch.logKey, "--content", content)).status, 0);
  after2 = { body: servedBody(join(content, "a.json")), files: await publishedLogFiles(join(content, "_log")) };
  witnesses = await Promise.all(
    ["witness-one.example/w", "witness-two.example/w"].map(
      async (name, i) => (await ed25519Signer({ name, seed: new Uint8Array(32).fill(i + 7) }, COSIGNATURE_TYPE))!,
    ),
  );
});

after(() => rmSync(scratch.dir, { recursive: true, force: true }));

describe("a latest proof", () => {
  test("is a tlog-proof whose extra data is the bucket and the entry, as JCS", async () => {
    const proof = parseTlogProof(await proofOf(after2.files));
    assert.ok(!("fault" in proof));
    assert.equal(proof.index, 2);
    const extra = new TextDecoder().decode(proof.extra);
    assert.equal(extra, canonicalize(JSON.parse(extra)));
    assert.deepEqual(Object.keys(JSON.parse(extra)), ["bucket", "entry"]);
    assert.equal(proof.checkpoint, new TextDecoder().decode(after2.files.get("checkpoint")));
  });

  test("is made for no UMID the log lacks", async () => {
    assert.equal(await latestProof({ read: async (path) => after2.files.get(path) }, "urn:never"), undefined);
  });
});

describe("verifyOfflineProof", () => {
  const keyOnly = () => keyOnlyPolicy(parseVerifierKey(verifier)!);

  test("accepts the latest body with its proof, and refuses the superseded one (log/not-latest)", async () => {
    const proof = await proofOf(after2.files);
    const accepted = await verifyOfflineProof(proof, "urn:a", after2.body, keyOnly(), { now: NOW });
    assert.equal(accepted.ok, true);
    assert.deepEqual(accepted.ok && { index: accepted.index, size: accepted.size }, { index: 2, size: 3 });
    const superseded = await verifyOfflineProof(proof, "urn:a", before1.body, keyOnly(), { now: NOW });
    assert.equal(!superseded.ok && superseded.refusal.rule, "log/not-latest");
  });

  test("refuses an entry that the proof's checkpoint does not hold as the latest (an old proof's entry)", async () => {
    const oldProof = parseTlogProof(await proofOf(before1.files));
    const newProof = parseTlogProof(await proofOf(after2.files));
    assert.ok(!("fault" in oldProof) && !("fault" in newProof));
    // The old entry and its index, under the new checkpoint: its inclusion fails, or the map names another.
    const mixed = formatTlogProof({ ...oldProof, checkpoint: newProof.checkpoint });
    const refused = await verifyOfflineProof(mixed, "urn:a", before1.body, keyOnly(), { now: NOW });
    assert.equal(refused.ok, false);
  });

  test("refuses a proof of another UMID, a tampered extra and another log's key (log/unproven)", async () => {
    const proof = await proofOf(after2.files);
    const ofB = await verifyOfflineProof(await proofOf(after2.files, "urn:b"), "urn:a", after2.body, keyOnly(), {
      now: NOW,
    });
    assert.equal(!ofB.ok && ofB.refusal.rule, "log/unproven");
    const parsed = parseTlogProof(proof);
    assert.ok(!("fault" in parsed));
    const tampered = new TextDecoder().decode(parsed.extra).replace('"latest":{', '"latest":{"urn:x":0,');
    const withExtra = formatTlogProof({ ...parsed, extra: new TextEncoder().encode(tampered) });
    const extraRefused = await verifyOfflineProof(withExtra, "urn:a", after2.body, keyOnly(), { now: NOW });
    assert.equal(!extraRefused.ok && extraRefused.refusal.rule, "log/unproven");
    const other = await ed25519Signer({ name: parseVerifierKey(verifier)!.name, seed: new Uint8Array(32).fill(3) });
    const otherKey = keyOnlyPolicy(other!);
    const wrongKey = await verifyOfflineProof(proof, "urn:a", after2.body, otherKey, { now: NOW });
    assert.equal(!wrongKey.ok && wrongKey.refusal.rule, "log/unproven");
  });

  test("with a 2-of-2 policy: both fresh cosignatures accepted, one refused (log/unwitnessed)", async () => {
    const both = await cosigned(after2.files, witnesses, [NOW_SECONDS - 60, NOW_SECONDS - 60]);
    const accepted = await verifyOfflineProof(await proofOf(both), "urn:a", after2.body, policy(BOTH), { now: NOW });
    assert.deepEqual(accepted.ok && accepted.witnessed, { cosigned: 2, of: 2 });
    const one = await cosigned(after2.files, witnesses.slice(0, 1), [NOW_SECONDS - 60]);
    const refused = await verifyOfflineProof(await proofOf(one), "urn:a", after2.body, policy(BOTH), { now: NOW });
    assert.equal(!refused.ok && refused.refusal.rule, "log/unwitnessed");
    assert.match(!refused.ok ? refused.refusal.message : "", /\bW2\b/);
  });

  test("a cosignature older than the bound is stale (log/stale-cosignature), unless the bound allows it", async () => {
    const old = await cosigned(after2.files, witnesses, [NOW_SECONDS - 40 * DAY, NOW_SECONDS - 60]);
    const proof = await proofOf(old);
    const stale = await verifyOfflineProof(proof, "urn:a", after2.body, policy(BOTH), { now: NOW });
    assert.equal(!stale.ok && stale.refusal.rule, "log/stale-cosignature");
    const allowed = await verifyOfflineProof(proof, "urn:a", after2.body, policy(BOTH), { now: NOW, maxAge: 41 * DAY });
    assert.equal(allowed.ok, true);
  });
});

describe("the client library's verifyProof", () => {
  test("accepts the latest body under a 2-of-2 policy, and refuses the superseded one and a bad policy", async () => {
    const { verifyProof } = await import("../core/client/index.ts");
    const both = await cosigned(after2.files, witnesses, [NOW_SECONDS - 60, NOW_SECONDS - 60]);
    const proof = await proofOf(both);
    const options = { logPolicy: policyText(BOTH), now: new Date(NOW) };
    const accepted = await verifyProof(after2.body, proof, options);
    assert.deepEqual(accepted, { ok: true, umid: "urn:a", index: 2, size: 3, witnessed: { cosigned: 2, of: 2 } });
    const superseded = await verifyProof(before1.body, proof, options);
    assert.equal(!superseded.ok && superseded.refusal.rule, "log/not-latest");
    const stale = await verifyProof(after2.body, proof, { ...options, now: new Date(NOW + 31 * DAY * 1000) });
    assert.equal(!stale.ok && stale.refusal.rule, "log/stale-cosignature");
    await assert.rejects(verifyProof(after2.body, proof, { logPolicy: "quorum nobody\n" }), TypeError);
  });
});

describe("manifest-resolver evaluate --proof --log-policy", () => {
  let dir: string;
  before(async () => {
    dir = join(scratch.dir, "offline");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const both = await cosigned(after2.files, witnesses, [NOW_SECONDS - 60, NOW_SECONDS - 60]);
    writeFileSync(join(dir, "a.tlog-proof"), await proofOf(both));
    writeFileSync(join(dir, "latest.json"), after2.body);
    writeFileSync(join(dir, "superseded.json"), before1.body);
    writeFileSync(join(dir, "policy"), policyText(BOTH));
    writeFileSync(
      join(dir, "policy-three"),
      `${policyText("")}witness W3 ${formatVerifierKey("w3.example", new Uint8Array(32).fill(9), COSIGNATURE_TYPE)}\ngroup all3 all W1 W2 W3\nquorum all3\n`,
    );
  });
  const evaluate = (file: string, policyFile = "policy", now = "2026-12-01T00:00:00Z") =>
    scratch.cli(
      ...["evaluate", join(dir, file), "--offline", "--json", "--now", now],
      ...["--proof", join(dir, "a.tlog-proof"), "--log-policy", join(dir, policyFile)],
    );
  const warningRules = (stdout: string) =>
    (JSON.parse(stdout) as { warnings: { rule?: string }[] }).warnings.map((w) => w.rule);

  test("accepts the latest body, with no request made", async () => {
    const run = await evaluate("latest.json");
    assert.equal(run.status, 0, run.stderr);
    // Offline, the status is not asked for: a warning says so, and no log rule is among them.
    assert.equal(JSON.parse(run.stdout).outcome, "accepted-with-warnings");
    assert.deepEqual(
      warningRules(run.stdout).filter((rule) => rule?.startsWith("log/")),
      [],
    );
    assert.match(run.stderr, /witnessed by 2 of 2/);
  });

  test("rejects the superseded body (log/not-latest)", async () => {
    const run = await evaluate("superseded.json");
    assert.equal(run.status, 1);
    assert.equal(JSON.parse(run.stdout).outcome, "rejected");
    assert.ok(warningRules(run.stdout).includes("log/not-latest"));
  });

  test("rejects a checkpoint short of the policy's quorum (log/unwitnessed), and stale ones later", async () => {
    const short = await evaluate("latest.json", "policy-three");
    assert.equal(short.status, 1);
    assert.ok(warningRules(short.stdout).includes("log/unwitnessed"));
    const later = await evaluate("latest.json", "policy", "2027-02-01T00:00:00Z");
    assert.equal(later.status, 1);
    assert.ok(warningRules(later.stdout).includes("log/stale-cosignature"));
  });

  test("takes --proof only with --log-policy, and names a policy's fault by line and column", async () => {
    const alone = await scratch.cli(
      "evaluate",
      join(dir, "latest.json"),
      "--offline",
      "--proof",
      join(dir, "a.tlog-proof"),
    );
    assert.equal(alone.status, 2);
    writeFileSync(join(dir, "bad-policy"), "log not-a-key\nquorum none\n");
    const bad = await evaluate("latest.json", "bad-policy");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /bad-policy:1:5:/);
  });
});
