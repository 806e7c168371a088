/**
 * Signed receipts (core §3.3.1 `receiptSignature`, §3.3.2; EXT-OPT O3): `evaluate` and
 * `resolve` with `--receipt-key PEM --receipt-key-ref KEYREF` print the receipt as a receipt
 * manifest signed with Profile A, which `evaluate` verifies like any manifest, and which a
 * change after signing breaks. The options go together; a key that cannot be used is
 * reported as `sign` reports it. `receiptManifest` of the library makes the unsigned one.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { evaluate, receiptManifest, receiptSchema, type Receipt } from "../core/evaluate/index.ts";
import { umidPath } from "../core/umid-path.ts";
import { didKeyRef } from "./support/did.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { assertLineNames, assertUsageError } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import type { Finished } from "./support/processes.ts";
import { sharedPath, skipWithoutShared } from "./support/shared.ts";

const NOW = "2026-06-01T00:00:00Z";
const DAY_LATER = "2026-06-02T00:00:00.000Z";
const signer = newKey();
const evaluator = newKey();
const evaluatorRef = didKeyRef(evaluator);
const evaluatorDid = evaluatorRef.slice(0, evaluatorRef.indexOf("#"));
const URN_UUID_V8 = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const validateReceipt = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(receiptSchema);
})();

type Printed = Record<string, unknown> & { signature: Record<string, string> };

const dir = mkdtempSync(join(tmpdir(), "um-signed-receipt-"));
after(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const pem = (key: KeyObject) => key.export({ format: "pem", type: "pkcs8" }) as string;
const keyFile = file("evaluator.pem", pem(evaluator));
const receiptKey = ["--receipt-key", keyFile, "--receipt-key-ref", evaluatorRef];
const good = file("good.jsonld", JSON.stringify(signed(manifestFor("urn:receipt:good"), signer)));

const cli = (command: string, ...args: string[]) => runCliInProcess([command, ...args], process.cwd());

/** `evaluate FILE` of a manifest (the printed receipt manifest, say) at `now`: its receipt. */
async function evaluated(text: string, now = NOW): Promise<Receipt> {
  const result = await cli("evaluate", file("evaluated.json", text), "--now", now, "--json");
  return JSON.parse(result.stdout) as Receipt;
}

describe("evaluate --receipt-key PEM --receipt-key-ref KEYREF (core §3.3.2, EXT-OPT O3)", () => {
  let plain: Finished;
  let signedRun: Finished;
  let printed: Printed;
  before(async () => {
    plain = await cli("evaluate", good, "--now", NOW);
    signedRun = await cli("evaluate", good, "--now", NOW, ...receiptKey);
    printed = JSON.parse(signedRun.stdout) as Printed;
  });

  it("prints a receipt manifest: the envelope, the receipt's fields, a Profile A signature", async () => {
    assert.equal(signedRun.status, 0, signedRun.stderr);
    const { signature, ...unsigned } = printed;
    const {
      "@context": context,
      "@id": id,
      "@type": type,
      manifestVersion,
      subject,
      issuedAt,
      expiresAt,
      ...fields
    } = unsigned;
    assert.deepEqual(
      [context, type, manifestVersion, subject, issuedAt, expiresAt],
      [
        "https://universalmanifest.net/ns/v0.4",
        ["um:Manifest", "um:Receipt"],
        "0.4",
        evaluatorDid,
        "2026-06-01T00:00:00.000Z",
        DAY_LATER,
      ],
    );
    assert.match(String(id), URN_UUID_V8);
    // The receipt fields are the unsigned receipt's, all but its @type.
    const { "@type": _, ...receiptFields } = JSON.parse(plain.stdout) as Receipt;
    assert.deepEqual(fields, receiptFields);
    assert.deepEqual(
      [signature.algorithm, signature.canonicalization, signature.keyRef, signature.created],
      ["Ed25519", "JCS-RFC8785", evaluatorRef, "2026-06-01T00:00:00.000Z"],
    );
    assert.ok(validateReceipt(printed), JSON.stringify(validateReceipt.errors));
  });

  it("is verified by evaluate like any manifest: signature valid, its did:key keyRef resolved", async () => {
    const r = await evaluated(signedRun.stdout);
    assert.deepEqual(
      [r.manifestId, r.outcome, r.signatureCheck, r.keyRefResolution, r.freshnessCheck],
      [printed["@id"], "accepted", "valid", "resolved", "fresh"],
    );
  });
  it("passes check, as a manifest a publisher could publish", async () => {
    const checked = await cli("check", file("receipt.jsonld", signedRun.stdout), "--now", NOW, "--json");
    assert.equal(checked.status, 0, checked.stdout);
    const [verdict] = checked.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { ok: boolean; errors: [] });
    assert.deepEqual([verdict?.ok, verdict?.errors], [true, []]);
  });

  it("is rejected once changed: a rejection turned into an acceptance", async () => {
    const expired = JSON.parse(
      (await cli("evaluate", good, "--now", "2031-01-01T00:00:00Z", ...receiptKey)).stdout,
    ) as Printed;
    assert.equal(expired.outcome, "rejected");
    assert.equal((await evaluated(JSON.stringify(expired), "2031-01-01T00:00:00Z")).signatureCheck, "valid");
    const tampered = await evaluated(JSON.stringify({ ...expired, outcome: "accepted" }), "2031-01-01T00:00:00Z");
    assert.deepEqual(
      [tampered.outcome, tampered.signatureCheck, tampered.warnings[0]?.rule],
      ["rejected", "invalid", "signature/invalid"],
    );
  });

  it("lives 24 hours; an archived one still shows a valid signature, and expired", async () => {
    const r = await evaluated(signedRun.stdout, "2026-06-02T00:00:01Z");
    assert.deepEqual([r.outcome, r.signatureCheck, r.freshnessCheck], ["rejected", "valid", "expired"]);
  });

  it("is the same bytes for the same receipt; another evaluation has another @id", async () => {
    assert.equal((await cli("evaluate", good, "--now", NOW, ...receiptKey)).stdout, signedRun.stdout);
    const later = JSON.parse(
      (await cli("evaluate", good, "--now", "2026-06-01T00:00:01Z", ...receiptKey)).stdout,
    ) as Printed;
    assert.notEqual(later["@id"], printed["@id"]);
  });

  it("signs a rejected receipt too (a file that is not JSON: no manifestId), and it verifies", async () => {
    const result = await cli("evaluate", file("broken.json", "{"), "--now", NOW, ...receiptKey);
    assert.equal(result.status, 1);
    const receipt = JSON.parse(result.stdout) as Printed;
    assert.deepEqual([receipt.manifestId, receipt.outcome], [null, "rejected"]);
    assert.deepEqual(
      [(await evaluated(result.stdout)).outcome, (await evaluated(result.stdout)).signatureCheck],
      ["accepted", "valid"],
    );
  });

  it("with omitProcessedAt, is issued at the clock", async () => {
    const result = await cli("evaluate", good, "--context", '{"omitProcessedAt":true}', "--now", NOW, ...receiptKey);
    const receipt = JSON.parse(result.stdout) as Printed;
    assert.deepEqual([receipt.processedAt, receipt.issuedAt], [undefined, "2026-06-01T00:00:00.000Z"]);
  });

  it("has the members of the public suite's receipt manifest (but its optional events)", {
    skip: skipWithoutShared("peer/universal-manifest-v0.4/valid/receipt-facet-key-shredded.jsonld"),
  }, async () => {
    const fixture = JSON.parse(
      readFileSync(sharedPath("peer/universal-manifest-v0.4/valid/receipt-facet-key-shredded.jsonld"), "utf8"),
    ) as Printed;
    const shape = (m: Printed) => ({
      members: Object.keys(m).filter((k) => k !== "events"),
      signature: Object.keys(m.signature),
      types: m["@type"],
    });
    const ours = shape(printed);
    const theirs = shape(fixture);
    assert.deepEqual(
      theirs.members.filter((k) => !ours.members.includes(k)),
      [],
    );
    assert.deepEqual([...ours.signature].sort(), [...theirs.signature].sort());
    assert.deepEqual(ours.types, theirs.types);
  });

  describe("the options go together; a key that cannot be used is reported as sign reports it", () => {
    for (const [missing, given] of [
      ["--receipt-key-ref", ["--receipt-key", keyFile]],
      ["--receipt-key", ["--receipt-key-ref", evaluatorRef]],
    ] as const) {
      it(`usage error (exit 2): ${given[0]} without ${missing}`, async () => {
        const result = await cli("evaluate", good, ...given);
        assertUsageError(result, "--receipt-key", "--receipt-key-ref", `${missing} `);
        assert.equal(result.stdout, "");
      });
    }

    const rsa = file(
      "rsa.pem",
      generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
        format: "pem",
        type: "pkcs8",
      }) as string,
    );
    const garbage = file("garbage.pem", "not a key");
    // Each names the key file, and what it is or needs to be (as sign's test of its --key).
    for (const [what, path, named] of [
      ["missing", join(dir, "none.pem"), []],
      ["not Ed25519", rsa, ["rsa", "Ed25519"]],
      ["not a PEM key", garbage, ["PEM"]],
    ] as const) {
      it(`a key file ${what}: one line on stderr, no receipt, exit 1`, async () => {
        const result = await cli("evaluate", good, "--receipt-key", path, "--receipt-key-ref", evaluatorRef);
        assert.deepEqual([result.status, result.stdout], [1, ""]);
        assertLineNames(result.stderr, "manifest-resolver: ", path, ...named);
        assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
      });
    }
    it("a did:key KEYREF of another key: refused, naming the rule its receipts would break", async () => {
      const result = await cli("evaluate", good, "--receipt-key", keyFile, "--receipt-key-ref", didKeyRef(newKey()));
      assert.deepEqual([result.status, result.stdout], [1, ""]);
      assertLineNames(result.stderr, "manifest-resolver: ", "--receipt-key-ref", "signature/keyref-mismatch");
    });
  });
});

describe("resolve --receipt-key PEM --receipt-key-ref KEYREF", () => {
  const umid = "urn:receipt:resolved";
  const body = JSON.stringify(signed(manifestFor(umid), signer));
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === umidPath(umid)) res.writeHead(200, { "content-type": "application/ld+json" }).end(body);
    else res.writeHead(404, { "content-type": "application/json" }).end("{}");
  });
  let url = "";
  before(async () => {
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  // --offline: the fixture's did:web host does not exist (tests/did-web.test.ts resolves keys).
  const resolveCli = (...args: string[]) => runCliInProcess(["resolve", url, umid, "--offline", ...args], tmpdir());

  it("prints the receipt signed as a receipt manifest, which evaluate verifies", async () => {
    const result = await resolveCli("--now", NOW, ...receiptKey);
    assert.equal(result.status, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Printed;
    assert.deepEqual(
      [printed["@type"], printed.subject, printed.manifestId, printed.outcome, printed.expiresAt],
      [["um:Manifest", "um:Receipt"], evaluatorDid, umid, "accepted", DAY_LATER],
    );
    const r = await evaluated(result.stdout);
    assert.deepEqual([r.outcome, r.signatureCheck, r.manifestId], ["accepted", "valid", printed["@id"]]);
    const tampered = await evaluated(JSON.stringify({ ...printed, manifestId: "urn:receipt:other" }));
    assert.deepEqual([tampered.outcome, tampered.signatureCheck], ["rejected", "invalid"]);
  });
  it("usage error (exit 2) for one option without the other", async () => {
    const result = await resolveCli("--receipt-key-ref", evaluatorRef);
    assertUsageError(result, "--receipt-key", "--receipt-key-ref", "--receipt-key ");
  });
  it("a key that cannot be used stops it before any request", async () => {
    const before = hits;
    const result = await resolveCli("--receipt-key", join(dir, "none.pem"), "--receipt-key-ref", evaluatorRef);
    assert.deepEqual([result.status, result.stdout, hits], [1, "", before]);
    assertLineNames(result.stderr, "manifest-resolver: ", join(dir, "none.pem"));
  });
});

describe("receiptManifest() of the library", () => {
  it("makes the unsigned receipt manifest of a receipt, its @id derived from its content", async () => {
    const receipt = await evaluate(JSON.stringify(signed(manifestFor("urn:receipt:lib"), signer)), { now: NOW });
    const made = await receiptManifest(receipt, {
      evaluator: "did:web:rp.example",
      standardsUrl: "https://std.example/",
    });
    assert.deepEqual(
      [made["@context"], made.subject, made.issuedAt, made.expiresAt, made.manifestId, "signature" in made],
      [
        "https://std.example/ns/v0.4",
        "did:web:rp.example",
        "2026-06-01T00:00:00.000Z",
        DAY_LATER,
        "urn:receipt:lib",
        false,
      ],
    );
    assert.equal(
      (await receiptManifest(receipt, { evaluator: "did:web:rp.example", standardsUrl: "https://std.example" }))["@id"],
      made["@id"],
    );
    const other = await receiptManifest(receipt, { evaluator: "did:web:other.example" });
    assert.notEqual(other["@id"], made["@id"]);
    await assert.rejects(receiptManifest(receipt, { evaluator: "" }), RangeError);
  });
  it("is issued at `now` for a receipt without processedAt", async () => {
    const receipt = await evaluate(JSON.stringify(signed(manifestFor("urn:receipt:lib"), signer)), {
      now: NOW,
      omitProcessedAt: true,
    });
    const made = await receiptManifest(receipt, {
      evaluator: "did:web:rp.example",
      now: new Date("2026-07-01T00:00:00Z"),
    });
    assert.deepEqual([made.issuedAt, made.expiresAt], ["2026-07-01T00:00:00.000Z", "2026-07-02T00:00:00.000Z"]);
  });
});

describe("a receipt manifest's signer and its evaluator (EXT-OPT O3)", () => {
  const now = "2026-06-01T00:00:00Z";
  const signedReceipt = async (evaluator: string, signer: KeyObject, keyRef: string) => {
    const receipt = await evaluate(manifestFor("urn:receipt:signer"), { now });
    const unsigned = await receiptManifest(receipt, { evaluator });
    return { ...unsigned, signature: signProfileA(unsigned, signer, keyRef, new Date(unsigned.issuedAt)) };
  };
  const codes = (r: Receipt) => r.warnings.map((w) => w.code);

  it("one signed under its evaluator's own did:key is that evaluator's record: no warning", async () => {
    const key = newKey();
    const keyRef = didKeyRef(key);
    const r = await evaluate(await signedReceipt(keyRef.split("#")[0]!, key, keyRef), { now });
    assert.deepEqual([r.outcome, codes(r)], ["accepted", []]);
  });

  it("one naming another evaluator than its signer's DID says it is not proven to be theirs", async () => {
    const mallory = newKey();
    const r = await evaluate(await signedReceipt("did:web:venue.example", mallory, didKeyRef(mallory)), { now });
    assert.deepEqual(
      [r.outcome, r.signatureCheck, codes(r)],
      ["accepted-with-warnings", "valid", ["um:reason:receipt:signer-unproven"]],
    );
  });
});
