/**
 * C2SP tlog-cosignature (core/tlog/cosignature.ts, note-keys.ts): key IDs of type 0x04,
 * vkeys and cosignature lines held byte for byte against the independent implementation
 * (tests/support/c2sp-independent.ts) both ways, the spec's example cosignature's
 * structure and signed message, and the cosignatures that must not verify.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatCheckpoint } from "../../core/tlog/checkpoint.ts";
import { cosign, cosignedMessage, openCosignatures } from "../../core/tlog/cosignature.ts";
import { formatNote, type NoteSignature, parseNote } from "../../core/tlog/note.ts";
import {
  COSIGNATURE_TYPE,
  ED25519_TYPE,
  ed25519KeyId,
  formatVerifierKey,
  parseVerifierKey,
} from "../../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner, signNote } from "../../core/tlog/note-signature.ts";
import {
  checkCosignatureLine,
  cosignatureLine,
  cosignatureMessage,
  ed25519FromSeed,
  keyIdOf,
  parseVkey,
  vkeyOf,
} from "../support/c2sp-independent.ts";

const seed = (byte: number) => Buffer.alloc(32, byte);
const cosigner = async (name: string, byte: number) =>
  (await ed25519Signer({ name, seed: seed(byte) }, COSIGNATURE_TYPE))!;
const body = formatCheckpoint({
  origin: "example.com/log",
  size: 7,
  rootHash: new Uint8Array(32).fill(9),
  extensions: [],
});
const lineOf = (signature: NoteSignature) => formatNote({ text: "x\n", signatures: [signature] }).slice(3);

/** The checkpoint note signed by the log, with `lines` (cosignature lines) appended. */
async function cosignedNote(lines: string[]) {
  const log = (await ed25519Signer({ name: "example.com/log", seed: seed(1) }))!;
  return parseNote((await signNote(body, [log])) + lines.join(""))!;
}

describe("cosigner keys (type 0x04)", () => {
  it("have the key ID SHA-256(name || 0x0A || 0x04 || key)[:4], not the log type's, in both", async () => {
    const ours = await cosigner("witness.example/w1", 2);
    const publicKey = Buffer.from(ours.publicKey);
    assert.equal(ours.keyId, keyIdOf("witness.example/w1", 0x04, publicKey));
    assert.equal(ed25519KeyId("witness.example/w1", publicKey, COSIGNATURE_TYPE), ours.keyId);
    assert.notEqual(ed25519KeyId("witness.example/w1", publicKey, ED25519_TYPE), ours.keyId);
    assert.deepEqual(ed25519FromSeed(seed(2)).publicKey, publicKey);
  });
  it("format as the same vkey in both, and each parses the other's", async () => {
    const { name, publicKey } = await cosigner("witness.example/w1", 2);
    const vkey = formatVerifierKey(name, publicKey, COSIGNATURE_TYPE);
    assert.equal(vkey, vkeyOf(name, 0x04, Buffer.from(publicKey)));
    const theirs = parseVkey(vkey)!;
    assert.equal(theirs.type, 0x04);
    assert.equal(parseVerifierKey(vkey, COSIGNATURE_TYPE)?.keyId, theirs.keyId);
  });
  it("are refused where a log key is asked for, and a log key where a cosigner key is", async () => {
    const { name, publicKey } = await cosigner("witness.example/w1", 2);
    assert.equal(parseVerifierKey(vkeyOf(name, 0x04, Buffer.from(publicKey))), undefined);
    assert.equal(parseVerifierKey(vkeyOf(name, 0x01, Buffer.from(publicKey)), COSIGNATURE_TYPE), undefined);
  });
});

describe("cosignatures, ours and the independent implementation's", () => {
  it("are the same line, byte for byte, for the same key, checkpoint and time (Ed25519 is deterministic)", async () => {
    const ours = lineOf(await cosign(body, await cosigner("witness.example/w1", 2), 1679315147));
    assert.equal(ours, cosignatureLine("witness.example/w1", ed25519FromSeed(seed(2)), body, 1679315147n));
  });
  it("ours verify in theirs, with the timestamp", async () => {
    const signer = await cosigner("witness.example/w1", 2);
    const line = lineOf(await cosign(body, signer, 1700000000));
    const key = { name: signer.name, publicKey: Buffer.from(signer.publicKey) };
    assert.equal(checkCosignatureLine(line, key, body), 1700000000n);
    assert.equal(checkCosignatureLine(line, key, body.replace("\n7\n", "\n8\n")), "invalid");
  });
  it("theirs verify in ours (openCosignatures), with the timestamp", async () => {
    const signer = await cosigner("witness.example/w1", 3);
    const note = await cosignedNote([cosignatureLine(signer.name, ed25519FromSeed(seed(3)), body, 1700000001n)]);
    assert.deepEqual(await openCosignatures(note, [signer]), {
      ok: true,
      cosigned: [{ key: signer, timestamp: 1700000001 }],
    });
  });
  it("sign the spec's message: the header, the time line, then the checkpoint's whole body", async () => {
    assert.deepEqual(Buffer.from(cosignedMessage(5, body)), cosignatureMessage(5n, body));
    assert.equal(new TextDecoder().decode(cosignedMessage(5, body)), `cosignature/v1\ntime 5\n${body}`);
  });
});

describe("the spec's example cosignature (tlog-cosignature, Format)", () => {
  const checkpoint = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
  const note =
    `${checkpoint}\n` +
    "— example.com/behind-the-sofa " +
    "Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n" +
    "— witness.example.com/w1 " +
    "jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n";
  it("is a key ID, a timestamp and 64 bytes; its time signs the spec's example message", () => {
    const [, cosignature] = parseNote(note)!.signatures;
    assert.equal(cosignature?.signature.length, 8 + 64);
    const timestamp = Number(
      new DataView(cosignature!.signature.buffer, cosignature!.signature.byteOffset).getBigUint64(0),
    );
    assert.equal(timestamp, 1679315147);
    const specMessage = `cosignature/v1\ntime 1679315147\n${checkpoint}`;
    assert.equal(new TextDecoder().decode(cosignedMessage(timestamp, checkpoint)), specMessage);
  });
});

describe("cosignatures that do not count", () => {
  const make = async () => {
    const signer = await cosigner("witness.example/w1", 4);
    return { signer, signature: await cosign(body, signer, 1700000000) };
  };
  it("a wrong key ID: the line is ignored", async () => {
    const { signer, signature } = await make();
    const note = await cosignedNote([lineOf({ ...signature, keyId: (signature.keyId + 1) >>> 0 })]);
    assert.deepEqual(await openCosignatures(note, [signer]), { ok: true, cosigned: [] });
  });
  it("a flipped byte: refused, naming the cosigner, in both implementations", async () => {
    const { signer, signature } = await make();
    for (const at of [0, 7, 8, 71]) {
      const bytes = Uint8Array.from(signature.signature);
      bytes[at]! ^= 1;
      const note = await cosignedNote([lineOf({ ...signature, signature: bytes })]);
      assert.deepEqual(await openCosignatures(note, [signer]), { ok: false, cosigner: signer }, `byte ${at}`);
      const key = { name: signer.name, publicKey: Buffer.from(signer.publicKey) };
      assert.equal(checkCosignatureLine(lineOf({ ...signature, signature: bytes }), key, body), "invalid");
    }
  });
  it("a timestamp past 2^53: refused, though validly signed (no real clock reads it)", async () => {
    const signer = await cosigner("witness.example/w1", 5);
    const line = cosignatureLine(signer.name, ed25519FromSeed(seed(5)), body, 2n ** 53n);
    assert.equal(
      checkCosignatureLine(line, { name: signer.name, publicKey: Buffer.from(signer.publicKey) }, body),
      2n ** 53n,
    );
    assert.deepEqual(await openCosignatures(await cosignedNote([line]), [signer]), { ok: false, cosigner: signer });
    await assert.rejects(cosign(body, signer, 2 ** 53), RangeError);
    await assert.rejects(cosign(body, signer, 0), RangeError);
  });
  it("a log-type (0x01) key of the same key pair: the 0x04 cosignature is not its", async () => {
    const signer = await cosigner("witness.example/w1", 6);
    const asLog = parseVerifierKey(formatVerifierKey(signer.name, signer.publicKey, ED25519_TYPE))!;
    const note = await cosignedNote([lineOf(await cosign(body, signer, 1700000000))]);
    assert.deepEqual(await openCosignatures(note, [asLog]), { ok: true, cosigned: [] });
  });
  it("a plain note signature by the cosigner key: refused, it is no timestamped signature", async () => {
    const signer: NoteSigner = await cosigner("witness.example/w1", 7);
    const plain = parseNote(await signNote(body, [signer]))!;
    assert.deepEqual(await openCosignatures(plain, [signer]), { ok: false, cosigner: signer });
  });
});
