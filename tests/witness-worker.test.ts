/**
 * The witness as a Cloudflare Worker (edge/adapters/cloudflare/witness/, as lib/ bundles it), under workerd
 * (miniflare) over real HTTP, its state in SQLite-backed Durable Objects: the C2SP tlog-witness suite the Node
 * witness passes (tests/support/witness-protocol.ts), then what is the Worker's own: /health from its PEM, a
 * signature workerd's WebCrypto cannot take, the state kept across a restart, one winner among concurrent
 * requests from one size, JSON events, and a configuration that is not one answering 500. Each test has a log of
 * its own, so none depends on another's state. Logs are real Merkle trees.
 */
import assert from "node:assert/strict";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decodeBase64url } from "../core/base64url.ts";
import { formatCheckpoint, parseCheckpoint } from "../core/tlog/checkpoint.ts";
import { leafHash, treeRoot } from "../core/tlog/merkle.ts";
import { parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey, type NoteKey, parseVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner, signNote } from "../core/tlog/note-signature.ts";
import { consistencyProof } from "../core/tlog/proofs.ts";
import { TreeHashes } from "../core/tlog/tree-hashes.ts";
import { formatAddCheckpoint, parseSizeBody, SIZE_MEDIA_TYPE } from "../core/tlog/witness-protocol.ts";
import { originHash } from "../core/witness/witness-store.ts";
import { startWorkerWitness, type WorkerWitness } from "./support/worker-witness.ts";
import { witnessKeys, witnessProtocolSuite } from "./support/witness-protocol.ts";

const WITNESS_NAME = "witness.example/w1";

interface WitnessKey {
  pem: string;
  cosigner: NoteKey;
}

function newWitnessKey(): WitnessKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  const publicKey = decodeBase64url(createPublicKey(privateKey).export({ format: "jwk" }).x!)!;
  const cosigner = parseVerifierKey(formatVerifierKey(WITNESS_NAME, publicKey, COSIGNATURE_TYPE), COSIGNATURE_TYPE)!;
  return { pem: privateKey.export({ format: "pem", type: "pkcs8" }) as string, cosigner };
}

/** A log: its signer, and a tree of `entries` whose every prefix it can sign and prove. */
class TestLog {
  private constructor(
    readonly signer: NoteSigner,
    private readonly tree: TreeHashes,
  ) {}

  /** `history` tells one tree of entries from another; `signer`: another log's key, for a fork. */
  static async create(origin: string, { history = "", signer }: { history?: string; signer?: NoteSigner } = {}) {
    signer ??= (await ed25519Signer({ name: origin, seed: crypto.getRandomValues(new Uint8Array(32)) }))!;
    const leaves = Array.from({ length: 64 }, (_, i) => leafHash(new TextEncoder().encode(`${history}entry ${i}`)));
    return new TestLog(signer, new TreeHashes(leaves));
  }

  get origin(): string {
    return this.signer.name;
  }

  get policyLine(): string {
    return `log ${formatVerifierKey(this.origin, this.signer.publicKey)}\n`;
  }

  async checkpoint(size: number): Promise<string> {
    const text = formatCheckpoint({
      origin: this.origin,
      size,
      rootHash: await treeRoot(this.tree, size),
      extensions: [],
    });
    return signNote(text, [this.signer]);
  }

  /** The add-checkpoint body from `oldSize` to `size`, with this tree's proof. */
  async body(oldSize: number, size: number): Promise<string> {
    const proof = oldSize === 0 ? [] : await consistencyProof(this.tree, oldSize, size);
    return formatAddCheckpoint({ oldSize, proof, checkpoint: await this.checkpoint(size) });
  }
}

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function post(witness: WorkerWitness, body: string): Promise<Answer> {
  const response = await fetch(`${witness.url}/add-checkpoint`, { method: "POST", body });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

async function servedCheckpoint(witness: WorkerWitness, origin: string): Promise<Answer> {
  const response = await fetch(`${witness.url}/${await originHash(origin)}/checkpoint`);
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

/** The size a 409 names, once its media type is tlog-witness's. */
function conflictSize(answer: Answer): number | undefined {
  assert.equal(answer.status, 409, answer.text);
  assert.equal(answer.contentType, SIZE_MEDIA_TYPE);
  return parseSizeBody(answer.text);
}

const scratch = mkdtempSync(join(tmpdir(), "um-witness-worker-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe("the witness as a Cloudflare Worker, over HTTP", async () => {
  const keys = await witnessKeys();
  witnessProtocolSuite(async () => {
    const witness = await startWorkerWitness({ name: keys.name, keyPem: keys.witnessPem, logsText: keys.logsText });
    return { url: witness.url, close: () => witness.close() };
  }, keys);
});

describe("the witness as a Cloudflare Worker", () => {
  const key = newWitnessKey();
  const names = ["forbidden", "race", "events"] as const;
  const logs = {} as Record<(typeof names)[number], TestLog>;
  let witness: WorkerWitness;

  before(async () => {
    for (const name of names) logs[name] = await TestLog.create(`example.com/${name}`);
    witness = await startWorkerWitness({
      name: WITNESS_NAME,
      keyPem: key.pem,
      logsText: `# the logs this witness witnesses\n${names.map((name) => logs[name].policyLine).join("")}`,
    });
  });
  after(() => witness.close());

  it("answers /health with its name and cosigner key, from the PEM it was given", async () => {
    const response = await fetch(`${witness.url}/health`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      status: "ok",
      name: WITNESS_NAME,
      key: formatVerifierKey(WITNESS_NAME, key.cosigner.publicKey, COSIGNATURE_TYPE),
      logs: names.length,
    });
  });

  it("answers 403 for no signature by the origin's key, or one that fails", async () => {
    const log = logs.forbidden;
    const impostor = await TestLog.create(log.origin);
    assert.equal((await post(witness, await impostor.body(0, 4))).status, 403, "another key, the same name");
    const signed = await log.checkpoint(4);
    const line = signed.slice(signed.lastIndexOf("\u2014 "));
    const bytes = Buffer.from(line.slice(line.lastIndexOf(" ") + 1).trim(), "base64");
    bytes[bytes.length - 1]! ^= 1;
    const forged = `${signed.slice(0, signed.lastIndexOf(" ") + 1)}${bytes.toString("base64")}\n`;
    const answer = await post(witness, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: forged }));
    assert.equal(answer.status, 403, "the origin's key, a signature that fails");
    // workerd's WebCrypto throws for a signature that is not 64 bytes: a refusal still, never a 500.
    const short = `${signed.slice(0, signed.lastIndexOf(" ") + 1)}${bytes.subarray(0, 40).toString("base64")}\n`;
    const shortAnswer = await post(witness, formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: short }));
    assert.equal(shortAnswer.status, 403, "the origin's key, a signature of 36 bytes");
    assert.equal((await servedCheckpoint(witness, log.origin)).status, 404, "nothing was cosigned");
  });

  it("lets exactly one of many requests from one size through, and the size it keeps never goes back", async () => {
    const log = logs.race;
    assert.equal((await post(witness, await log.body(0, 10))).status, 200);
    const sizes = Array.from({ length: 12 }, (_, i) => 11 + i);
    const bodies = await Promise.all(sizes.map((size) => log.body(10, size)));
    const answers = await Promise.all(bodies.map((body) => post(witness, body)));
    const winners = sizes.filter((_, i) => answers[i]!.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(answers.map((answer) => answer.status)));
    const winner = winners[0]!;
    for (const answer of answers.filter((answer) => answer.status !== 200)) assert.equal(conflictSize(answer), winner);
    const served = await servedCheckpoint(witness, log.origin);
    assert.equal(parseCheckpoint(parseNote(served.text)!.text)?.size, winner);
    assert.equal(conflictSize(await post(witness, await log.body(10, 30))), winner);
  });

  it("logs each request as one JSON event", async () => {
    await fetch(`${witness.url}/health`);
    assert.equal((await post(witness, await logs.events.body(0, 5))).status, 200);
    assert.equal(conflictSize(await post(witness, await logs.events.body(0, 6))), 5);
    const events = await eventually(() => witness.events().filter((event) => event.path === "/health"));
    assert.deepEqual(Object.keys(events[0]!).sort(), ["method", "ms", "path", "status"]);
    assert.ok(
      witness.events().some((event) => event.status === 409 && event.origin === logs.events.origin && event.size === 5),
    );
  });
});

describe("the witness's state in its Durable Objects", () => {
  it("outlives a restart of the Worker over the same storage", async () => {
    const key = newWitnessKey();
    const log = await TestLog.create("example.com/kept");
    const settings = { name: WITNESS_NAME, keyPem: key.pem, logsText: log.policyLine, persistDir: join(scratch, "do") };
    const first = await startWorkerWitness(settings);
    try {
      assert.equal((await post(first, await log.body(0, 7))).status, 200);
    } finally {
      await first.close();
    }
    const second = await startWorkerWitness(settings);
    try {
      const served = await servedCheckpoint(second, log.origin);
      assert.equal(served.status, 200);
      assert.equal(parseCheckpoint(parseNote(served.text)!.text)?.size, 7);
      assert.equal(conflictSize(await post(second, await log.body(0, 9))), 7);
      assert.equal((await post(second, await log.body(7, 9))).status, 200);
    } finally {
      await second.close();
    }
  });
});

describe("a witness whose configuration is not one", () => {
  const key = newWitnessKey();
  const p256 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" });
  let log: TestLog;
  before(async () => {
    log = await TestLog.create("example.com/unconfigured");
  });

  const cases = [
    { what: "a key that is no PEM", variable: "WITNESS_KEY", settings: () => ({ keyPem: "PRIVATE+KEY+x" }) },
    { what: "a P-256 key", variable: "WITNESS_KEY", settings: () => ({ keyPem: p256 as string }) },
    { what: "a PEM whose key is cut", variable: "WITNESS_KEY", settings: () => ({ keyPem: cutPem(key.pem) }) },
    { what: "no key", variable: "WITNESS_KEY", settings: () => ({ keyPem: "" }) },
    { what: "a name no note can carry", variable: "WITNESS_NAME", settings: () => ({ name: "witness example" }) },
    { what: "a logs line that is not one", variable: "WITNESS_LOGS", settings: () => ({ logsText: "log nonsense\n" }) },
    { what: "no log at all", variable: "WITNESS_LOGS", settings: () => ({ logsText: "# none yet\n" }) },
  ] as const;

  for (const { what, variable, settings } of cases)
    it(`answers 500 naming ${variable} for ${what}, on every path, and cosigns nothing`, async () => {
      const witness = await startWorkerWitness({
        name: WITNESS_NAME,
        keyPem: key.pem,
        logsText: log.policyLine,
        ...settings(),
      });
      try {
        assert.equal((await fetch(`${witness.url}/health`)).status, 500);
        const answer = await post(witness, await log.body(0, 3));
        assert.equal(answer.status, 500);
        assert.doesNotMatch(answer.text, /\u2014/);
        const events = await eventually(() => witness.events().filter((event) => event.status === 500), 2);
        assert.deepEqual(
          events.map((event) => [event.path, event.variable]),
          [
            ["/health", variable],
            ["/add-checkpoint", variable],
          ],
        );
      } finally {
        await witness.close();
      }
    });
});

/** A PEM whose base64 lost its last line: still base64, no longer a key. */
function cutPem(pem: string): string {
  const lines = pem.trim().split("\n");
  const body = Buffer.from(lines.slice(1, -1).join(""), "base64").subarray(0, 40).toString("base64");
  return `${lines[0]}\n${body}\n${lines.at(-1)}\n`;
}

/**
 * `find()` once it holds `count` items: the Worker's log lines reach this process through workerd's output, after
 * the answer. What it holds after a few seconds otherwise, for the assertion to show.
 */
async function eventually<T>(find: () => T[], count = 1): Promise<T[]> {
  for (let turn = 0; turn < 250 && find().length < count; turn++) await new Promise((go) => setTimeout(go, 20));
  return find();
}
