/**
 * The eddsa-jcs-2022 cryptosuite (core/crypto/eddsa-jcs-2022.ts) against the W3C test
 * vectors (../shared/peer/w3c/vc-di-eddsa/TestVectors/eddsa-jcs-2022/): signing the
 * unsigned credential with the vectors' key reproduces the signed one byte for byte
 * (Ed25519 is deterministic), and verifying accepts it and refuses every alteration.
 */
import assert from "node:assert/strict";
import { createPrivateKey, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { canonicalize } from "../../core/crypto/jcs.ts";
import { addEddsaJcs2022Proof, verifyEddsaJcs2022Proof } from "../../core/crypto/eddsa-jcs-2022.ts";
import { decodeBase58btc } from "../../core/did/base58btc.ts";
import { sharedPath, skipWithoutShared } from "../support/shared.ts";

/** What JSON.parse gives: the alterations below reach into any member. */
type Parsed = ReturnType<typeof JSON.parse>;

const VECTORS = "peer/w3c/vc-di-eddsa/TestVectors/";
const skip = skipWithoutShared(VECTORS);
const read = (name: string) => readFileSync(sharedPath(VECTORS + name), "utf8");
const json = (name: string): Parsed => JSON.parse(read(name));

/** The vectors' signer: its secret key is multibase base58btc of the ed25519-priv multicodec (0x8026) and the seed. */
function vectorSigner() {
  const secret = decodeBase58btc((json("keyPair.json").privateKeyMultibase as string).slice(1))!;
  assert.deepEqual([...secret.subarray(0, 2)], [0x80, 0x26]);
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), secret.subarray(2)]);
  const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  return async (data: Uint8Array) => new Uint8Array(sign(null, data, key));
}

describe("eddsa-jcs-2022", { skip }, () => {
  it("signs the vectors' credential into exactly the signed credential", async () => {
    const signed = json("eddsa-jcs-2022/signedJCS.json");
    const { proof, ...unsecured } = signed as { proof: Record<string, string> };
    const made = await addEddsaJcs2022Proof(
      unsecured,
      { verificationMethod: proof.verificationMethod!, created: proof.created! },
      vectorSigner(),
    );
    assert.equal(canonicalize(made), canonicalize(signed));
    assert.equal(canonicalize(unsecured), read("eddsa-jcs-2022/canonDocJCS.txt").trim());
    assert.equal((made.proof as Record<string, string>).proofValue, read("eddsa-jcs-2022/sigBTC58JCS.txt").trim());
  });

  it("verifies the vectors' signed credential, naming its key", async () => {
    const verdict = await verifyEddsaJcs2022Proof(json("eddsa-jcs-2022/signedJCS.json"));
    assert.equal(verdict.verified, true);
    assert.ok(verdict.verified);
    assert.equal(
      verdict.verificationMethod,
      "did:key:z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2",
    );
  });

  const alterations: [string, (document: Parsed) => void][] = [
    ["a changed member", (d) => (d.name = "Alumni Credentia1")],
    ["a changed proof date", (d) => (d.proof.created = "2023-02-24T23:36:39Z")],
    ["another purpose", (d) => (d.proof.proofPurpose = "authentication")],
    ["another cryptosuite", (d) => (d.proof.cryptosuite = "eddsa-rdfc-2022")],
    ["a @context the proof's does not start", (d) => d["@context"].reverse()],
    ["a did:web method", (d) => (d.proof.verificationMethod = "did:web:vc.example#key-1")],
    ["a truncated proofValue", (d) => (d.proof.proofValue = d.proof.proofValue.slice(0, -2))],
    ["no proof", (d) => delete d.proof],
    ["a proof set", (d) => (d.proof = [d.proof])],
  ];
  for (const [what, alter] of alterations) {
    it(`refuses ${what}`, async () => {
      const document = json("eddsa-jcs-2022/signedJCS.json");
      alter(document);
      const verdict = await verifyEddsaJcs2022Proof(document);
      assert.equal(verdict.verified, false);
    });
  }
});
