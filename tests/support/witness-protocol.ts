/**
 * C2SP tlog-witness's add-checkpoint and monitor retrieval, every answer the spec names, as a suite any witness host
 * runs: `witnessProtocolSuite(start, keys)` with a `start()` that serves a witness configured with `keys` (its key,
 * its name, the logs of `keys.logsText`) and fresh state. `witnessKeys()` makes the keys; the logs are trees held
 * here, so every proof is a real one (core/tlog). Each test has its origins of its own: one witness serves the suite.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { decodeBase64url, utf8 } from "../../core/base64url.ts";
import { formatCheckpoint } from "../../core/tlog/checkpoint.ts";
import { openCosignatures } from "../../core/tlog/cosignature.ts";
import { EMPTY_TREE_ROOT, type Hash, leafHash, treeRoot } from "../../core/tlog/merkle.ts";
import { formatNote, parseNote } from "../../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey, type NoteKey } from "../../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner, openNote, signNote } from "../../core/tlog/note-signature.ts";
import { consistencyProof } from "../../core/tlog/proofs.ts";
import { TreeHashes } from "../../core/tlog/tree-hashes.ts";
import {
  formatAddCheckpoint,
  MAX_PROOF_LINES,
  parseCosignatureLines,
  SIZE_MEDIA_TYPE,
} from "../../core/tlog/witness-protocol.ts";
import { originHash } from "../../core/witness/witness-store.ts";
import { MAX_BODY_BYTES } from "../../core/witness/witness-handler.ts";

export interface WitnessKeys {
  /** The witness's name, its cosignatures' key name. */
  name: string;
  /** The witness's Ed25519 private key, PKCS#8 PEM (as keygen writes it), and its 32-byte seed. */
  witnessPem: string;
  witnessSeed: Uint8Array;
  /** Its cosigner key (type 0x04): what its cosignatures verify with. */
  witness: NoteKey;
  /** The logs' signers, several origins; ORIGIN_COUNT origins, the first with a second key. */
  logs: NoteSigner[];
  /** The list of logs the witness is configured with: `log <vkey>` lines. */
  logsText: string;
}

export interface RunningWitness {
  url: string;
  close(): Promise<void>;
}

/** Origins `witness.test/log-0` … : enough for each test of the suite and the host's own tests to have their own. */
const ORIGIN_COUNT = 40;

export async function witnessKeys(name = "witness.test/w1"): Promise<WitnessKeys> {
  const { privateKey } = generateKeyPairSync("ed25519");
  const seed = decodeBase64url(privateKey.export({ format: "jwk" }).d!)!;
  const witness = (await ed25519Signer({ name, seed }, COSIGNATURE_TYPE))!;
  const logs: NoteSigner[] = [];
  for (let i = 0; i < ORIGIN_COUNT; i++) logs.push(await randomSigner(origin(i)));
  logs.push(await randomSigner(origin(0)));
  const logsText = logs.map((log) => `log ${formatVerifierKey(log.name, log.publicKey)}\n`).join("");
  return {
    name,
    witnessPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    witnessSeed: seed,
    witness: { name, keyId: witness.keyId, publicKey: witness.publicKey },
    logs,
    logsText,
  };
}

/** The origin of the `i`th log of `witnessKeys()`. */
export function origin(i: number): string {
  return `witness.test/log-${i}`;
}

async function randomSigner(name: string): Promise<NoteSigner> {
  return (await ed25519Signer({ name, seed: crypto.getRandomValues(new Uint8Array(32)) }))!;
}

/** A log's tree, of `size` entries made from `seed` (two seeds: two trees that differ from their first entry). */
export class TestTree {
  private readonly hashes: TreeHashes;

  constructor(size: number, seed = "main") {
    this.hashes = new TreeHashes(Array.from({ length: size }, (_, i) => leafHash(utf8(`${seed} ${i}\n`))));
  }

  root(size: number): Promise<Hash> {
    return size === 0 ? Promise.resolve(EMPTY_TREE_ROOT) : treeRoot(this.hashes, size);
  }

  proof(oldSize: number, size: number): Promise<Hash[]> {
    return oldSize === 0 ? Promise.resolve([]) : consistencyProof(this.hashes, oldSize, size);
  }

  /** The checkpoint of the first `size` entries (or of another `root`), signed by `signers`, the log's first. */
  async checkpoint(
    signers: readonly NoteSigner[],
    size: number,
    root?: Hash,
    extensions: string[] = [],
  ): Promise<string> {
    const rootHash = root ?? (await this.root(size));
    return signNote(formatCheckpoint({ origin: signers[0]!.name, size, rootHash, extensions }), signers);
  }
}

/** `note` with the signature by the key named `keyName` and of `keyId` changed: that line no longer verifies. */
function forged(note: string, key: NoteKey): string {
  const parsed = parseNote(note)!;
  const signatures = parsed.signatures.map((line) =>
    line.keyName === key.name && line.keyId === key.keyId
      ? { ...line, signature: line.signature.map((byte, i) => (i === 10 ? byte ^ 1 : byte)) }
      : line,
  );
  return formatNote({ text: parsed.text, signatures });
}

export interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function postBody(url: string, body: string | Uint8Array, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${url}/add-checkpoint`, { method: "POST", body, ...init });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

/** POSTs add-checkpoint: old size, proof, checkpoint. */
export function addCheckpoint(url: string, oldSize: number, proof: Hash[], checkpoint: string): Promise<Answer> {
  return postBody(url, formatAddCheckpoint({ oldSize, proof, checkpoint }));
}

/** The size the witness has cosigned for `origin`, from its monitoring path (0: none). */
export async function cosignedSize(url: string, logOrigin: string): Promise<number> {
  const response = await fetch(`${url}/${await originHash(logOrigin)}/checkpoint`);
  const text = await response.text();
  if (response.status === 404) return 0;
  assert.equal(response.status, 200, text);
  return Number(text.split("\n")[1]);
}

/** The cosignatures in a 200's `body` on `checkpoint`, verified with the witness's key: their timestamps. */
async function cosignedAt(checkpoint: string, body: string, witness: NoteKey): Promise<number[]> {
  const note = parseNote(`${checkpoint}${body}`);
  assert.ok(note, `the cosignature lines extend the checkpoint into a note:\n${body}`);
  const opened = await openCosignatures(note, [witness]);
  assert.ok(opened.ok, "every line by the witness's key verifies");
  return opened.cosigned.map((cosigned) => cosigned.timestamp);
}

const now = () => Math.floor(Date.now() / 1000);

export function witnessProtocolSuite(start: () => Promise<RunningWitness>, keys: WitnessKeys): void {
  const logOf = (i: number) => keys.logs[i]!;
  describe("C2SP tlog-witness add-checkpoint", () => {
    let url = "";
    let running: RunningWitness | undefined;
    before(async () => {
      running = await start();
      url = running.url;
    });
    after(() => running?.close());

    test("200: a first checkpoint from old 0, cosigned now; one extending it, by the log's other key", async () => {
      const tree = new TestTree(20);
      const first = await tree.checkpoint([logOf(0)], 7);
      const begun = now();
      const answered = await addCheckpoint(url, 0, [], first);
      assert.equal(answered.status, 200, answered.body);
      const lines = parseCosignatureLines(answered.body);
      assert.deepEqual(
        lines?.map(({ keyName, keyId }) => ({ keyName, keyId })),
        [{ keyName: keys.name, keyId: keys.witness.keyId }],
      );
      const [timestamp, ...more] = await cosignedAt(first, answered.body, keys.witness);
      assert.deepEqual(more, []);
      assert.ok(timestamp! >= begun - 1 && timestamp! <= now() + 1, `timestamp ${timestamp} is now`);
      // Both keys listed for the origin are trusted: the second signs the next checkpoint alone.
      const next = await tree.checkpoint([keys.logs[ORIGIN_COUNT]!], 20);
      const extended = await addCheckpoint(url, 7, await tree.proof(7, 20), next);
      assert.equal(extended.status, 200, extended.body);
      assert.equal((await cosignedAt(next, extended.body, keys.witness)).length, 1);
      // The same checkpoint again: nothing to add, and nothing refused.
      assert.equal((await addCheckpoint(url, 20, [], next)).status, 200);
    });

    test("GET /<origin hash>/checkpoint: the latest, with the log's signature and the cosignature", async () => {
      const tree = new TestTree(9);
      const log = logOf(1);
      const checkpoint = await tree.checkpoint([log, await randomSigner(log.name)], 9);
      assert.equal((await addCheckpoint(url, 0, [], checkpoint)).status, 200);
      const response = await fetch(`${url}/${await originHash(log.name)}/checkpoint`);
      assert.equal(response.status, 200);
      const served = await response.text();
      const note = parseNote(served)!;
      assert.equal(note.text, `${checkpoint.split("\n\n")[0]!}\n`);
      // The log's signature the witness verified, and its own; not the unknown key's.
      assert.deepEqual(
        note.signatures.map((signature) => signature.keyName),
        [log.name, keys.name],
      );
      assert.ok((await openNote(served, [log])).ok);
      const opened = await openCosignatures(note, [keys.witness]);
      assert.ok(opened.ok && opened.cosigned.length === 1);
      const unknown = await fetch(`${url}/${"0".repeat(64)}/checkpoint`);
      assert.equal(unknown.status, 404);
      const uncosigned = await fetch(`${url}/${await originHash(origin(39))}/checkpoint`);
      assert.equal(uncosigned.status, 404);
    });

    test("404: an origin the witness does not witness", async () => {
      const stranger = await randomSigner("witness.test/unknown");
      const answered = await addCheckpoint(url, 0, [], await new TestTree(3).checkpoint([stranger], 3));
      assert.equal(answered.status, 404);
    });

    test("403: no signature by a key trusted for the origin, or a trusted key's that fails", async () => {
      const tree = new TestTree(3);
      const impostor = await randomSigner(origin(2));
      assert.equal((await addCheckpoint(url, 0, [], await tree.checkpoint([impostor], 3))).status, 403);
      const signed = await tree.checkpoint([logOf(2)], 3);
      assert.equal((await addCheckpoint(url, 0, [], forged(signed, logOf(2)))).status, 403);
      // A failing line by a trusted key fails the note even beside a good one by the origin's other trusted key.
      const both = await tree.checkpoint([logOf(0), keys.logs[ORIGIN_COUNT]!], 3);
      assert.equal((await addCheckpoint(url, 0, [], forged(both, logOf(0)))).status, 403);
      assert.equal(await cosignedSize(url, origin(2)), 0);
    });

    test("400: an old size past the checkpoint's, and bodies that are no request", async () => {
      const tree = new TestTree(8);
      const log = logOf(3);
      const checkpoint = await tree.checkpoint([log], 4);
      assert.equal((await addCheckpoint(url, 5, [], checkpoint)).status, 400);
      const proofLine = `${Buffer.from((await tree.root(2)) as Uint8Array).toString("base64")}\n`;
      const bodies = {
        "old line with a leading zero": `old 00\n\n${checkpoint}`,
        "old line with a sign": `old -1\n\n${checkpoint}`,
        "old line misspelled": `Old 0\n\n${checkpoint}`,
        "old line with two spaces": `old  0\n\n${checkpoint}`,
        "no old line": `\n${checkpoint}`,
        "no empty line": `old 0\n${checkpoint}`,
        "a checkpoint size with a leading zero": `old 0\n\n${checkpoint.replace("\n4\n", "\n04\n")}`,
        "64 proof lines": `old 2\n${proofLine.repeat(MAX_PROOF_LINES + 1)}\n${checkpoint}`,
        "a proof line that is not base64": `old 2\n${proofLine}not*base64\n\n${checkpoint}`,
        "a proof line of 31 bytes": `old 2\n${Buffer.alloc(31).toString("base64")}\n\n${checkpoint}`,
        "no checkpoint": "old 0\n\n",
        "not UTF-8": Buffer.concat([Buffer.from("old 0\n\n"), Buffer.from([0xff, 0xfe]), Buffer.from(checkpoint)]),
      };
      for (const [what, body] of Object.entries(bodies)) assert.equal((await postBody(url, body)).status, 400, what);
      assert.equal(await cosignedSize(url, log.name), 0);
    });

    test("409: an old size other than the one last cosigned, with text/x.tlog.size and that size", async () => {
      const tree = new TestTree(12);
      const log = logOf(4);
      const never = await addCheckpoint(url, 3, await tree.proof(3, 12), await tree.checkpoint([log], 12));
      assert.deepEqual(never, { status: 409, type: SIZE_MEDIA_TYPE, body: "0\n" });
      assert.equal((await addCheckpoint(url, 0, [], await tree.checkpoint([log], 5))).status, 200);
      const stale = await addCheckpoint(url, 0, [], await tree.checkpoint([log], 12));
      assert.deepEqual(stale, { status: 409, type: SIZE_MEDIA_TYPE, body: "5\n" });
      const ahead = await addCheckpoint(url, 8, await tree.proof(8, 12), await tree.checkpoint([log], 12));
      assert.deepEqual(ahead, { status: 409, type: SIZE_MEDIA_TYPE, body: "5\n" });
    });

    test("422: size 0 not empty, a proof from 0, a bad proof, the same size with another root", async () => {
      const tree = new TestTree(10);
      const log = logOf(5);
      const notEmpty = await tree.checkpoint([log], 0, await tree.root(3));
      assert.equal((await addCheckpoint(url, 0, [], notEmpty)).status, 422);
      assert.equal((await addCheckpoint(url, 0, [], await tree.checkpoint([log], 0))).status, 200);
      const withProof = await addCheckpoint(url, 0, [await tree.root(1)], await tree.checkpoint([log], 4));
      assert.equal(withProof.status, 422);
      assert.equal((await addCheckpoint(url, 0, [], await tree.checkpoint([log], 4))).status, 200);
      const proof = await tree.proof(4, 10);
      const bad = proof.map((hash, i) => (i === 0 ? Uint8Array.from(hash, (byte) => byte ^ 1) : hash));
      assert.equal((await addCheckpoint(url, 4, bad, await tree.checkpoint([log], 10))).status, 422);
      assert.equal((await addCheckpoint(url, 4, proof.slice(1), await tree.checkpoint([log], 10))).status, 422);
      const otherRoot = await tree.checkpoint([log], 4, await tree.root(5));
      assert.equal((await addCheckpoint(url, 4, [], otherRoot)).status, 422);
      assert.equal(await cosignedSize(url, log.name), 4);
    });

    test("422 (stricter than C2SP): the size and root cosigned before, with other extension lines", async () => {
      const tree = new TestTree(8);
      const log = logOf(8);
      const first = await tree.checkpoint([log], 8, undefined, ["example/latest 0 AAAA"]);
      assert.equal((await addCheckpoint(url, 0, [], first)).status, 200);
      // The same text again is cosigned again (a fresh timestamp), another text of the same tree is not.
      assert.equal((await addCheckpoint(url, 8, [], first)).status, 200);
      const other = await tree.checkpoint([log], 8, undefined, ["example/latest 0 BBBB"]);
      assert.equal((await addCheckpoint(url, 8, [], other)).status, 422);
      const served = await fetch(`${url}/${await originHash(log.name)}/checkpoint`);
      assert.match(await served.text(), /example\/latest 0 AAAA/);
    });

    test("a fork: another tree past the size cosigned is 422 with a proof from it, 409 from another size", async () => {
      const tree = new TestTree(16);
      const fork = new TestTree(16, "fork");
      const log = logOf(6);
      assert.equal((await addCheckpoint(url, 0, [], await tree.checkpoint([log], 6))).status, 200);
      const forked = await fork.checkpoint([log], 11);
      assert.equal((await addCheckpoint(url, 6, await fork.proof(6, 11), forked)).status, 422);
      const fromElsewhere = await addCheckpoint(url, 3, await fork.proof(3, 11), forked);
      assert.deepEqual(fromElsewhere, { status: 409, type: SIZE_MEDIA_TYPE, body: "6\n" });
      // The honest tree still extends it.
      assert.equal(
        (await addCheckpoint(url, 6, await tree.proof(6, 11), await tree.checkpoint([log], 11))).status,
        200,
      );
      assert.equal(await cosignedSize(url, log.name), 11);
    });

    test("/health, 405 for GET /add-checkpoint, 413 for a body over the limit", async () => {
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      const said = (await health.json()) as { name: string; key: string; logs: number };
      assert.equal(said.name, keys.name);
      assert.equal(said.key, formatVerifierKey(keys.name, keys.witness.publicKey, COSIGNATURE_TYPE));
      assert.equal(said.logs, ORIGIN_COUNT);
      const get = await fetch(`${url}/add-checkpoint`);
      assert.equal(get.status, 405);
      assert.match(get.headers.get("allow") ?? "", /POST/);
      await get.text();
      const checkpoint = await new TestTree(2).checkpoint([logOf(7)], 2);
      const padded = `old 0\n\n${checkpoint}${"x".repeat(MAX_BODY_BYTES)}`;
      assert.equal((await postBody(url, padded)).status, 413);
      assert.equal(await cosignedSize(url, origin(7)), 0);
    });
  });
}
