/**
 * C2SP signed-note and tlog-checkpoint (core/tlog): key strings, the known checkpoint of
 * the 300-entry tree reproduced byte for byte with the test key (Ed25519 is deterministic)
 * and verified, the spec's own example note, and the strict parsing of both formats.
 */
import assert from "node:assert/strict";
import { encodeBase64 } from "../../core/base64url.ts";
import { describe, it } from "node:test";
import {
  type Checkpoint,
  formatCheckpoint,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from "../../core/tlog/checkpoint.ts";
import { parseNote } from "../../core/tlog/note.ts";
import {
  ed25519KeyId,
  formatSignerKey,
  formatVerifierKey,
  parseSignerKey,
  parseVerifierKey,
} from "../../core/tlog/note-keys.ts";
import { ed25519Signer, openNote, signNote } from "../../core/tlog/note-signature.ts";
import { skipWithoutVectors as skip, vectors } from "../support/tlog-vectors.ts";

const v = vectors!;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
/** A well-formed signature line: key ID 1 and 64 zero bytes, by `name`. */
const signatureLine = (name: string) =>
  `— ${name} ${encodeBase64(Uint8Array.from({ length: 68 }, (_, i) => +(i === 3)))}\n`;

describe("the spec's example (signed-note, Verifier keys)", () => {
  const vkey = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
  const note =
    "This is an example message.\n\n" +
    "— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
  it("verifies with its verifier key, whose key ID is SHA-256(name, 0x0A, 0x01, key)[:4]", async () => {
    const key = parseVerifierKey(vkey)!;
    assert.equal(key.keyId, 0x530d903a);
    assert.equal(formatVerifierKey(key.name, key.publicKey), vkey);
    const opened = await openNote(note, [key]);
    assert.equal(opened.ok && opened.note.text, "This is an example message.\n");
  });
  it("is refused when its text changes", async () => {
    const opened = await openNote(note.replace("example message", "example massage"), [parseVerifierKey(vkey)!]);
    assert.deepEqual(opened, { ok: false, reason: "bad-signature" });
  });
  it("ignores a signature by a key it does not know, and needs one it knows", async () => {
    const other = parseVerifierKey(vkey.replace("example.com/foo+530d903a", "example.com/bar+1b0dbb6b"));
    assert.equal(other, undefined, "a key whose ID is not its hash is refused");
    const stranger = { ...parseVerifierKey(vkey)!, name: "example.com/bar" };
    assert.deepEqual(await openNote(note, [stranger]), { ok: false, reason: "no-known-signature" });
  });
});

describe("the known checkpoint of the 300-entry tree (tlog-checkpoint)", { skip }, () => {
  const { origin, checkpointOfTreeSize300: expected } = vectors?.note ?? { origin: "", checkpointOfTreeSize300: "" };
  const checkpoint: Checkpoint = {
    origin,
    size: 300,
    rootHash: vectors?.roots.get(300) ?? new Uint8Array(32),
    extensions: [],
  };
  it("reads the test key in Go's formats", async () => {
    const signerKey = parseSignerKey(v.note.signerKey)!;
    assert.equal(hex(signerKey.seed), v.note.ed25519SeedHex);
    const signer = (await ed25519Signer(signerKey))!;
    assert.equal(formatVerifierKey(signer.name, signer.publicKey), v.note.verifierKey);
    assert.equal(formatSignerKey({ ...signer, seed: signerKey.seed }), v.note.signerKey);
    assert.equal(ed25519KeyId(origin, signer.publicKey), parseVerifierKey(v.note.verifierKey)!.keyId);
  });
  it("refuses a signer key whose key ID is not its own", async () => {
    const signerKey = parseSignerKey(v.note.signerKey)!;
    assert.equal(await ed25519Signer({ ...signerKey, keyId: signerKey.keyId ^ 1 }), undefined);
  });
  it("is reproduced byte for byte", async () => {
    const signer = (await ed25519Signer(parseSignerKey(v.note.signerKey)!))!;
    assert.equal(await signCheckpoint(checkpoint, signer), expected);
  });
  it("verifies with the verifier key, and says what it holds", async () => {
    const opened = await openCheckpoint(expected, parseVerifierKey(v.note.verifierKey)!, origin);
    assert.deepEqual(opened, { ok: true, checkpoint });
  });
  it("is refused for another log, with another size, or another root", async () => {
    const key = parseVerifierKey(v.note.verifierKey)!;
    assert.deepEqual(await openCheckpoint(expected, key, `${origin}2`), { ok: false, reason: "wrong-origin" });
    const bigger = expected.replace("\n300\n", "\n301\n");
    assert.deepEqual(await openCheckpoint(bigger, key, origin), { ok: false, reason: "bad-signature" });
    const otherRoot = expected.replace(
      formatCheckpoint(checkpoint).split("\n")[2]!,
      formatCheckpoint({ ...checkpoint, rootHash: v.roots.get(600)! }).split("\n")[2]!,
    );
    assert.deepEqual(await openCheckpoint(otherRoot, key, origin), { ok: false, reason: "bad-signature" });
  });
  it("keeps a witness's signature it does not know, and verifies the log's", async () => {
    const witness = signatureLine("witness.example/w");
    const cosigned = expected + witness;
    const opened = await openCheckpoint(cosigned, parseVerifierKey(v.note.verifierKey)!, origin);
    assert.equal(opened.ok, true);
    assert.equal(parseNote(cosigned)?.signatures.length, 2);
  });
  it("signs a checkpoint with extension lines, which then verifies", async () => {
    const signer = (await ed25519Signer(parseSignerKey(v.note.signerKey)!))!;
    const extended = { ...checkpoint, extensions: ["map abc", "another line"] };
    const note = await signCheckpoint(extended, signer);
    assert.deepEqual(await openCheckpoint(note, signer, origin), { ok: true, checkpoint: extended });
  });
});

describe("strict parsing (signed-note, tlog-checkpoint)", () => {
  const root = "qGPLZJICkiN75ww+Rvf4ixU1nnccdBigO9PmbqUzrvc=";
  const checkpoints: [string, string][] = [
    ["no final newline", `log\n1\n${root}`],
    ["an empty origin", `\n1\n${root}\n`],
    ["no root hash", "log\n1\n"],
    ["a size with a leading zero", `log\n01\n${root}\n`],
    ["a negative size", `log\n-1\n${root}\n`],
    ["a size past 2^53", `log\n9007199254740993\n${root}\n`],
    ["a root hash of 31 bytes", "log\n1\nqGPLZJICkiN75ww+Rvf4ixU1nnccdBigO9PmbqUzrg==\n"],
    ["a non-canonical root hash", `log\n1\n${root.replace("c=", "d=")}\n`],
    ["an unpadded root hash", `log\n1\n${root.slice(0, -1)}\n`],
    ["an empty extension line", `log\n1\n${root}\n\next\n`],
    ["a control character", `log\t1\n1\n${root}\n`],
  ];
  for (const [what, text] of checkpoints)
    it(`refuses a checkpoint with ${what}`, () => assert.equal(parseCheckpoint(text), undefined));
  it("reads an empty tree's checkpoint", () => {
    assert.equal(parseCheckpoint(`log\n0\n${root}\n`)?.size, 0);
  });

  const signature = signatureLine("log");
  const notes: [string, string][] = [
    ["no blank line before the signatures", `text\n${signature}`],
    ["no signature", "text\n\n"],
    ["a line that is not a signature", `text\n\n${signature}not a signature\n`],
    ["a key name with a plus", `text\n\n${signature.replace("log", "lo+g")}`],
    ["a key name with a space", `text\n\n${signature.replace("log", "lo\u00a0g")}`],
    ["a signature of 4 bytes", "text\n\n— log AAAAAQ==\n"],
    ["a carriage return", `text\r\n\n${signature}`],
    ["no final newline", `text\n\n${signature.slice(0, -1)}`],
  ];
  for (const [what, note] of notes) it(`refuses a note with ${what}`, () => assert.equal(parseNote(note), undefined));
  it("refuses a note that is not UTF-8", () => {
    assert.equal(parseNote(Uint8Array.from([0xff, 0x0a, 0x0a, ...new TextEncoder().encode(signature)])), undefined);
  });
  it("splits at the last blank line: the text may hold blank lines", () => {
    assert.equal(parseNote(`a\n\nb\n\n${signature}`)?.text, "a\n\nb\n");
  });
  it("will not sign a text without a final newline, or with no signer", async () => {
    const signer = (await ed25519Signer({ name: "log", seed: new Uint8Array(32) }))!;
    await assert.rejects(signNote("text", [signer]), RangeError);
    await assert.rejects(signNote("text\n", []), RangeError);
    assert.equal(parseNote(await signNote("text\n", [signer]))?.text, "text\n");
  });
});
