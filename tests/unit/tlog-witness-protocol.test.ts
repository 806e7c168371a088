/**
 * C2SP tlog-witness (core/tlog/witness-protocol.ts, core/witness/): the add-checkpoint
 * messages held against the spec's examples and the independent implementation both ways;
 * malformed bodies; the witness's decision, status by status in the spec's order, with an
 * in-memory WitnessStore, the spec's race (two requests from one old size: one wins, the
 * stored size never goes back), the HTTP handler's answers, and SerialByKey.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { utf8 } from "../../core/base64url.ts";
import { formatCheckpoint } from "../../core/tlog/checkpoint.ts";
import { openCosignatures } from "../../core/tlog/cosignature.ts";
import { EMPTY_TREE_ROOT, type Hash, leafHash } from "../../core/tlog/merkle.ts";
import { formatNote, parseNote } from "../../core/tlog/note.ts";
import { COSIGNATURE_TYPE } from "../../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner, signNote } from "../../core/tlog/note-signature.ts";
import { consistencyProof } from "../../core/tlog/proofs.ts";
import { TreeHashes } from "../../core/tlog/tree-hashes.ts";
import {
  formatAddCheckpoint,
  MAX_PROOF_LINES,
  parseAddCheckpoint,
  parseCosignatureLines,
  parseSizeBody,
  SIZE_MEDIA_TYPE,
} from "../../core/tlog/witness-protocol.ts";
import { type AddCheckpointAnswer, addCheckpoint, type Witness } from "../../core/witness/add-checkpoint.ts";
import { SerialByKey } from "../../core/witness/serial-by-key.ts";
import { MAX_BODY_BYTES, witnessHandler } from "../../core/witness/witness-handler.ts";
import {
  type CosignedCheckpoint,
  decodeCosigned,
  encodeCosigned,
  originHash,
  type WitnessStore,
} from "../../core/witness/witness-store.ts";
import {
  checkCosignatureLine,
  formatAddCheckpointBody,
  mth,
  parseAddCheckpointBody,
  parseConflictBody,
} from "../support/c2sp-independent.ts";

const SPEC_CHECKPOINT =
  "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n" +
  "— example.com/behind-the-sofa " +
  "Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n" +
  "— example.com/behind-the-sofa " +
  "opLqBQsREYCgu6xQkYQwJr9fo45a62DN9EdmHXnZdXNqlcVGlCum2Wks+49/V6267UEjw6QUXTS5Rovnzv++qbSzm9Q=\n";
const SPEC_PROOF = [
  "PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=",
  "jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=",
  "5+pKlUdi2LeF/BcMHBn+Ku6yhPGNCswZZD1X/6QgPd8=",
  "/6WVhPs2CwSsb5rYBH5cjHV/wSmA79abXAwhXw3Kj/0=",
];
const SPEC_REQUEST = `old 20852014\n${SPEC_PROOF.map((line) => `${line}\n`).join("")}\n${SPEC_CHECKPOINT}`;
const SPEC_RESPONSE =
  "— witness.example/w1 " +
  "CMp+6LWBU0anHGH5aNDTJkH/gj79sG+T6+iP2ThYN5krrDJbR1HDnucjL39QsZTSvVjyQLrdk3DXDqI5G2HgLatVs0pWh6Up69HVOw==\n" +
  "— witness.example/w1 " +
  "I7rEps0pvK2UqkS2gSpVUDhrhVtQV9lgF6pRrWAvjJHjyWpW7VcE3SiOlVlbQNt64vWhO+DlkL0+UfzuOBMh9ChdMkP1vi/lCAsmlw==\n" +
  "— witness.example/w2 " +
  "AWui8Sk55XjYLOijihBjhqEH6nS1ndDymE0a+6idX7pLcnoB+dhnz0854aLZgrrKbYKA7nC3HNJhm/kWl7oJlqU3rXXvpysAdyP3wQ==\n";

describe("the spec's add-checkpoint examples", () => {
  it("the request body: old 20852014, four proof hashes, the checkpoint (its signatures fake: parsed only)", () => {
    const ours = parseAddCheckpoint(utf8(SPEC_REQUEST));
    const theirs = parseAddCheckpointBody(Buffer.from(SPEC_REQUEST));
    assert.ok(!("fault" in ours) && !("error" in theirs));
    assert.equal(ours.oldSize, 20852014);
    assert.deepEqual(
      ours.proof.map((hash) => Buffer.from(hash).toString("base64")),
      SPEC_PROOF,
    );
    assert.equal(ours.checkpoint, SPEC_CHECKPOINT);
    assert.deepEqual(
      { ...theirs, proof: theirs.proof.map((hash) => hash.toString("base64")) },
      {
        old: 20852014,
        proof: SPEC_PROOF,
        checkpoint: SPEC_CHECKPOINT,
      },
    );
    assert.equal(parseNote(ours.checkpoint)?.signatures.length, 2);
    assert.equal(formatAddCheckpoint(ours), SPEC_REQUEST);
  });
  it("the 409's body: the size and a newline, in both", () => {
    for (const [body, size] of [
      ["20852014\n", 20852014],
      ["0\n", 0],
      ["020852014\n", undefined],
      ["20852014", undefined],
      ["20852014\r\n", undefined],
      ["20852014\n\n", undefined],
      ["-1\n", undefined],
      [" 1\n", undefined],
      ["\n", undefined],
    ] as const) {
      assert.equal(parseSizeBody(body), size, JSON.stringify(body));
      assert.equal(parseConflictBody(body), size, JSON.stringify(body));
    }
  });
  it("the 200's body: three signature lines", () => {
    const lines = parseCosignatureLines(SPEC_RESPONSE);
    assert.deepEqual(
      lines?.map((line) => line.keyName),
      ["witness.example/w1", "witness.example/w1", "witness.example/w2"],
    );
    assert.ok(lines?.every((line) => line.signature.length === 8 + 64));
  });
  it("a 200's body that is not signature lines alone is refused", () => {
    const [first, ...rest] = SPEC_RESPONSE.split(/(?<=\n)/);
    for (const body of [
      "",
      `${first}\n${rest.join("")}`,
      `\n${SPEC_RESPONSE}`,
      `x\n${SPEC_RESPONSE}`,
      first!.slice(0, -1),
    ])
      assert.equal(parseCosignatureLines(body), undefined, JSON.stringify(body));
  });
});

describe("request bodies, ours and the independent implementation's", () => {
  const proof = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
  it("are the same bytes for the same request, and each parses the other's", () => {
    for (const request of [
      { old: 0, proof: [], checkpoint: SPEC_CHECKPOINT },
      { old: 5, proof, checkpoint: SPEC_CHECKPOINT },
    ]) {
      const ours = formatAddCheckpoint({ oldSize: request.old, proof: request.proof, checkpoint: request.checkpoint });
      assert.equal(ours, formatAddCheckpointBody(request));
      assert.deepEqual(parseAddCheckpointBody(Buffer.from(ours)), request);
      const parsed = parseAddCheckpoint(utf8(formatAddCheckpointBody(request)));
      assert.ok(!("fault" in parsed));
      assert.deepEqual(
        { ...parsed, proof: parsed.proof.map((hash) => Buffer.from(hash)) },
        { oldSize: request.old, proof: request.proof, checkpoint: request.checkpoint },
      );
    }
  });
  const hash = Buffer.alloc(32, 3).toString("base64");
  const malformed: [string, Uint8Array][] = [
    ["not UTF-8", Uint8Array.from([...Buffer.from("old 0\n\n"), 0xff, 0x0a])],
    ["no empty line", Buffer.from("old 0\n")],
    ["no old line", Buffer.from(`\n${SPEC_CHECKPOINT}`)],
    ["Old for old", Buffer.from(`Old 0\n\n${SPEC_CHECKPOINT}`)],
    ["a leading zero", Buffer.from(`old 05\n\n${SPEC_CHECKPOINT}`)],
    ["a negative size", Buffer.from(`old -5\n\n${SPEC_CHECKPOINT}`)],
    ["two spaces", Buffer.from(`old  5\n\n${SPEC_CHECKPOINT}`)],
    ["a carriage return", Buffer.from(`old 5\r\n\n${SPEC_CHECKPOINT}`)],
    ["a proof line that is no base64", Buffer.from(`old 5\n${hash.slice(1)}*\n\n${SPEC_CHECKPOINT}`)],
    ["a proof hash of 31 bytes", Buffer.from(`old 5\n${Buffer.alloc(31).toString("base64")}\n\n${SPEC_CHECKPOINT}`)],
    ["a proof line in non-canonical base64", Buffer.from(`old 5\n${hash.slice(0, -2)}B=\n\n${SPEC_CHECKPOINT}`)],
    ["64 proof lines", Buffer.from(`old 5\n${`${hash}\n`.repeat(MAX_PROOF_LINES + 1)}\n${SPEC_CHECKPOINT}`)],
  ];
  for (const [why, body] of malformed)
    it(`${why}: a fault in both`, () => {
      assert.ok("fault" in parseAddCheckpoint(body));
      assert.ok("error" in parseAddCheckpointBody(Buffer.from(body)));
    });
  it("63 proof lines are taken; a size past 2^53 is not", () => {
    const body = `old 5\n${`${hash}\n`.repeat(MAX_PROOF_LINES)}\n${SPEC_CHECKPOINT}`;
    assert.equal((parseAddCheckpoint(utf8(body)) as { proof: Hash[] }).proof.length, 63);
    assert.ok("fault" in parseAddCheckpoint(utf8(`old 9007199254740992\n\n${SPEC_CHECKPOINT}`)));
  });
});

// The witness's decision, over a log of 16 entries held in memory.

const ORIGIN = "example.com/log";
const leaves = Array.from({ length: 16 }, (_, i) => leafHash(utf8(`entry ${i}`)));
const tree = new TreeHashes(leaves);
const rootOf = (size: number): Hash => mth(leaves.slice(0, size).map((leaf) => Buffer.from(leaf)));
const seed = (byte: number) => new Uint8Array(32).fill(byte);

/** A WitnessStore in memory, serial per origin as the interface asks, keeping the sizes it stored in order. */
class MemoryStore implements WitnessStore {
  readonly records = new Map<string, string>();
  readonly stored: number[] = [];
  private readonly serial = new SerialByKey();
  update<T>(
    origin: string,
    step: (latest: CosignedCheckpoint | undefined) => Promise<{ next?: CosignedCheckpoint; result: T }>,
  ): Promise<T> {
    return this.serial.run(origin, async () => {
      const { next, result } = await step(await this.latest(origin));
      if (next !== undefined) {
        this.records.set(origin, encodeCosigned(next));
        this.stored.push(next.size);
      }
      return result;
    });
  }
  async latest(origin: string): Promise<CosignedCheckpoint | undefined> {
    const record = this.records.get(origin);
    return record === undefined ? undefined : decodeCosigned(record);
  }
}

async function setUp() {
  const log = (await ed25519Signer({ name: ORIGIN, seed: seed(1) }))!;
  const cosigner = (await ed25519Signer({ name: "witness.example/w1", seed: seed(2) }, COSIGNATURE_TYPE))!;
  const witness: Witness = { signer: cosigner, logs: new Map([[ORIGIN, [log]]]), clock: () => 1700000000 };
  const store = new MemoryStore();
  const checkpoint = (size: number, signer: NoteSigner = log, root = rootOf(size), origin = ORIGIN) =>
    signNote(formatCheckpoint({ origin, size, rootHash: root, extensions: [] }), [signer]);
  const body = async (oldSize: number, size: number, options: { proof?: Hash[]; note?: string } = {}) =>
    utf8(
      formatAddCheckpoint({
        oldSize,
        proof: options.proof ?? (oldSize === 0 ? [] : await consistencyProof(tree, oldSize, size)),
        checkpoint: options.note ?? (await checkpoint(size)),
      }),
    );
  const add = async (oldSize: number, size: number, options?: { proof?: Hash[]; note?: string }) =>
    addCheckpoint(await body(oldSize, size, options), witness, store);
  return { log, cosigner, witness, store, checkpoint, body, add };
}

const statusOf = (answer: AddCheckpointAnswer) => answer.status;

describe("the witness's add-checkpoint decision (in-memory store)", () => {
  it("200: cosigns, the cosignature verifies in ours and the independent one, and the size is stored", async () => {
    const { add, store, cosigner, log } = await setUp();
    const answer = await add(0, 5);
    assert.equal(answer.status, 200);
    const { cosignature } = answer as { cosignature: string };
    const text = formatCheckpoint({ origin: ORIGIN, size: 5, rootHash: rootOf(5), extensions: [] });
    const key = { name: cosigner.name, publicKey: Buffer.from(cosigner.publicKey) };
    assert.equal(checkCosignatureLine(cosignature, key, text), 1700000000n);
    const served = parseNote((await store.latest(ORIGIN))!.note)!;
    assert.deepEqual(
      served.signatures.map((line) => line.keyName),
      [log.name, cosigner.name],
    );
    assert.deepEqual(await openCosignatures(served, [cosigner]), {
      ok: true,
      cosigned: [{ key: cosigner, timestamp: 1700000000 }],
    });
    assert.equal((await add(5, 9)).status, 200);
    assert.equal((await add(9, 9)).status, 200, "the same checkpoint again");
    assert.deepEqual(store.stored, [5, 9, 9]);
  });
  it("each refusal, with its status", async () => {
    const { add, body, witness, store, checkpoint, log } = await setUp();
    const stranger = (await ed25519Signer({ name: ORIGIN, seed: seed(9) }))!;
    const flipped = (note: string) => {
      const parsed = parseNote(note)!;
      const signature = Uint8Array.from(parsed.signatures[0]!.signature);
      signature[0]! ^= 1;
      return formatNote({ text: parsed.text, signatures: [{ ...parsed.signatures[0]!, signature }] });
    };
    assert.equal(statusOf(await addCheckpoint(utf8("old 0\n"), witness, store)), 400);
    assert.equal(statusOf(await addCheckpoint(utf8("old 0\n\nnot a note\n"), witness, store)), 400);
    for (const spoilt of [
      (note: string) => `${note}more\n`,
      (note: string) => `${note}\n`,
      (note: string) => note.replace("\n", "\r\n"),
    ])
      assert.equal(statusOf(await add(0, 5, { note: spoilt(await checkpoint(5)) })), 400, "a line after, a CR");
    assert.equal(statusOf(await add(0, 5, { note: await checkpoint(5, log, rootOf(5), "other.example/log") })), 404);
    assert.equal(statusOf(await add(0, 5, { note: await checkpoint(5, stranger) })), 403);
    assert.equal(statusOf(await add(0, 5, { note: flipped(await checkpoint(5)) })), 403);
    assert.equal(statusOf(await add(6, 5, { proof: [] })), 400);
    assert.equal(statusOf(await add(0, 0, { note: await checkpoint(0, log, new Uint8Array(32)) })), 422);
    assert.equal(statusOf(await add(0, 5, { proof: [leaves[0]!] })), 422);
    assert.equal((await add(0, 0)).status, 200, "size 0 with the empty tree's root");
    assert.equal((await add(0, 4)).status, 200);
    assert.deepEqual(await add(3, 8), { status: 409, origin: ORIGIN, size: 4 });
    const proof = await consistencyProof(tree, 4, 8);
    proof[0] = leaves[1]!;
    assert.equal(statusOf(await add(4, 8, { proof })), 422);
    assert.equal(statusOf(await add(4, 4, { note: await checkpoint(4, log, rootOf(5)) })), 422);
    assert.equal(statusOf(await add(4, 4, { proof: [rootOf(4)] })), 422, "a proof where sizes are equal");
    assert.equal(statusOf(await addCheckpoint(await body(0, 5), witness, store)), 409);
    assert.deepEqual(store.stored, [0, 4], "nothing refused is stored");
  });
  it("a request breaking several rules gets the status of the first the spec lists", async () => {
    const { add, checkpoint, log } = await setUp();
    const stranger = (await ed25519Signer({ name: ORIGIN, seed: seed(9) }))!;
    await add(0, 4);
    // Unknown origin before a bad signature, before old > size, before a conflicting old size, before a bad proof.
    assert.equal(statusOf(await add(9, 5, { proof: [], note: await checkpoint(5, log, rootOf(5), "x.example") })), 404);
    assert.equal(statusOf(await add(9, 5, { proof: [], note: await checkpoint(5, stranger) })), 403);
    assert.equal(statusOf(await add(9, 5, { proof: [] })), 400);
    assert.equal(statusOf(await add(2, 5, { proof: [leaves[0]!] })), 409);
    assert.equal(statusOf(await add(0, 0, { note: await checkpoint(0, log, new Uint8Array(32)) })), 409);
  });
  it("the spec's race: two requests from one old size, one wins, and the stored size never goes back", async () => {
    const { add, store } = await setUp();
    await add(0, 3);
    for (const [a, b] of [
      [5, 12],
      [16, 13],
    ] as const) {
      const from = store.stored.at(-1)!;
      const answers = await Promise.all([add(from, a), add(from, b)]);
      const won = answers.filter((answer) => answer.status === 200);
      assert.equal(won.length, 1, JSON.stringify(answers.map(statusOf)));
      const winner = (won[0] as { size: number }).size;
      assert.deepEqual(
        answers.find((answer) => answer.status !== 200),
        { status: 409, origin: ORIGIN, size: winner },
      );
      assert.equal((await store.latest(ORIGIN))?.size, winner);
      if (winner === 16) break;
    }
    assert.deepEqual(
      store.stored,
      [...store.stored].sort((x, y) => x - y),
    );
  });
});

describe("the witness's HTTP handler", () => {
  it("answers add-checkpoint by status, a 409 as text/x.tlog.size, and serves the checkpoint it cosigned", async () => {
    const { body, witness, store, cosigner } = await setUp();
    const handle = witnessHandler({ witness, store });
    const post = async (bytes: Uint8Array) =>
      handle(new Request("http://w.example/add-checkpoint", { method: "POST", body: bytes }));
    const ok = await post(await body(0, 5));
    assert.equal(ok.status, 200);
    const lines = parseCosignatureLines(await ok.text());
    assert.deepEqual(
      lines?.map((line) => [line.keyName, line.keyId]),
      [[cosigner.name, cosigner.keyId]],
    );
    const conflict = await post(await body(0, 6));
    assert.equal(conflict.status, 409);
    assert.equal(conflict.headers.get("content-type"), SIZE_MEDIA_TYPE);
    assert.equal(parseConflictBody(await conflict.text()), 5);
    const served = await handle(new Request(`http://w.example/${await originHash(ORIGIN)}/checkpoint`));
    assert.equal(served.status, 200);
    const note = parseNote(await served.text())!;
    assert.equal((await openCosignatures(note, [cosigner])).ok, true);
    assert.equal(
      (await handle(new Request(`http://w.example/${await originHash("x.example")}/checkpoint`))).status,
      404,
    );
    assert.equal((await handle(new Request("http://w.example/add-checkpoint"))).status, 405);
    const large = handle(
      new Request("http://w.example/add-checkpoint", { method: "POST", body: new Uint8Array(MAX_BODY_BYTES + 1) }),
    );
    assert.equal((await large).status, 413);
  });
});

describe("SerialByKey", () => {
  const deferred = () => {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
  /** How many keys the map holds: private, as no caller needs it, but the cleanup is what this checks. */
  const keysHeld = (serial: SerialByKey) => (serial as unknown as { tails: Map<string, unknown> }).tails.size;
  /** Lets every pending promise callback run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("runs one key's work in call order, one at a time; another key's meanwhile; and keeps no key after", async () => {
    const serial = new SerialByKey();
    const events: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const job = (name: string, gate: { promise: Promise<void> }) => async () => {
      events.push(`start ${name}`);
      await gate.promise;
      events.push(`end ${name}`);
      return name;
    };
    const a1 = serial.run("a", job("a1", gates[0]!));
    const a2 = serial.run("a", job("a2", gates[1]!));
    const b1 = serial.run("b", job("b1", gates[2]!));
    await settle();
    assert.deepEqual(events, ["start a1", "start b1"]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    await settle();
    assert.deepEqual(events, ["start a1", "start b1", "end b1"], "a2 waits for a1 though its gate is open");
    gates[0]!.resolve();
    assert.deepEqual(await Promise.all([a1, a2, b1]), ["a1", "a2", "b1"]);
    assert.deepEqual(events, ["start a1", "start b1", "end b1", "end a1", "start a2", "end a2"]);
    await settle();
    assert.equal(keysHeld(serial), 0);
  });
  it("a failing work fails its caller alone: the next runs, and no key is kept", async () => {
    const serial = new SerialByKey();
    const failing = serial.run("a", async () => {
      throw new Error("boom");
    });
    const next = serial.run("a", async () => "next");
    await assert.rejects(failing, /boom/);
    assert.equal(await next, "next");
    await settle();
    assert.equal(keysHeld(serial), 0);
  });
  it("settled() waits for all work begun, failed or not, and for work begun while it waits", async () => {
    const serial = new SerialByKey();
    const [a, b, c] = [deferred(), deferred(), deferred()];
    void serial.run("a", () => a.promise);
    void serial.run("b", () => b.promise).catch(() => undefined);
    let done = false;
    const settled = serial.settled().then(() => {
      done = true;
    });
    a.resolve();
    void serial.run("c", () => c.promise);
    await settle();
    b.reject(new Error("refused"));
    await settle();
    assert.equal(done, false, "c is still running");
    c.resolve();
    await settled;
    assert.equal(done, true);
    assert.equal(keysHeld(serial), 0);
  });

  it("a key's work started after the last settled does not wait, and is itself dropped once settled", async () => {
    const serial = new SerialByKey();
    await serial.run("a", async () => 1);
    await settle();
    assert.equal(keysHeld(serial), 0);
    const gate = deferred();
    const pending = serial.run("a", () => gate.promise);
    assert.equal(keysHeld(serial), 1);
    gate.resolve();
    await pending;
    await settle();
    assert.equal(keysHeld(serial), 0);
  });
});

describe("the empty tree's root", () => {
  it("is SHA-256 of nothing in both implementations", () => {
    assert.deepEqual(mth([]), Buffer.from(EMPTY_TREE_ROOT));
  });
});
