/**
 * The build as a trust gate, tried as an attacker in a pull request would try it: keys
 * that look pinned but are not, a key file where the build does not look, an older
 * payload nobody signed, a private key committed under content/. Every command gives the
 * same verdict on the same file, run from any folder of the repository.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { redirectLocationProblem } from "../core/validate/redirect-location.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import {
  FIXTURE_KEY_REF,
  manifestFor,
  newKey,
  optInDigest,
  pinning,
  signed,
  v01Payload,
} from "./support/fixture-content.ts";
import { didJwkOf, didKeyRef, rawPublicKey } from "./support/did.ts";
import { writeFiles } from "./support/file-tree.ts";
import { readRecords } from "./support/index.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import {
  assertLineNames,
  type PrintedProblem,
  printedProblems,
  problemPlaces,
  theProblem,
} from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-trust-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const publisher = newKey();
const attacker = newKey();

/** A repository of its own (found by its package.json), with `files` under it. */
function repository(name: string, files: Record<string, unknown>): string {
  return writeFiles(join(scratch, name), { "package.json": {}, ...files });
}

function cli(cwd: string, ...args: string[]) {
  return cliWith({}, cwd, ...args);
}

/** The CLI with `env` on top of this process's environment, in this process. */
async function cliWith(env: Record<string, string>, cwd: string, ...args: string[]) {
  const result = await runCliInProcess(args, cwd, env);
  return { ...result, output: result.stdout + result.stderr };
}

/** Signed by `key` under `keyRef`, embedding that key. */
function signedAs(umid: string, key: typeof publisher, keyRef: string, extra: Record<string, unknown> = {}) {
  const manifest = manifestFor(umid, extra);
  return { ...manifest, signature: signProfileA(manifest, key, keyRef, new Date("2026-01-01T00:00:00Z")) };
}

/** Asserts that `problem` is an error or warning at line `line` (any column), or of its file as a whole (undefined). */
function assertAt(problem: PrintedProblem, severity: PrintedProblem["severity"], line: number | undefined): void {
  assert.deepEqual([problem.severity, problem.line], [severity, line], `${problem.file}: ${problem.message}`);
  assert.equal(problem.column === undefined, line === undefined);
}

const digestOf = optInDigest;

describe("closed-world key pinning", () => {
  const lookAlikes = {
    "space.json": `${FIXTURE_KEY_REF} `,
    "case.json": FIXTURE_KEY_REF.toUpperCase(),
    "fragment.json": FIXTURE_KEY_REF.replace("#key-1", "#key-2"),
  };
  const root = repository("closed", {
    "content/_keys.json": pinning(publisher),
    "content/good.json": signed(manifestFor("urn:good"), publisher),
    ...Object.fromEntries(
      Object.entries(lookAlikes).map(([file, keyRef]) => [
        `content/${file}`,
        signedAs(`urn:${file}`, attacker, keyRef),
      ]),
    ),
  });

  it("refuses a keyRef that _keys.json does not pin by exact string, whatever key the manifest embeds", async () => {
    const result = await cli(root, "check");
    assert.equal(result.status, 1, result.output);
    // Each names its keyRef, exactly, and the file that does not pin it.
    for (const [file, keyRef] of Object.entries(lookAlikes)) {
      const unpinned = theProblem(result.stdout, "signature/unpinned-key", `content/${file}`);
      assert.equal(unpinned.severity, "error");
      assert.ok(unpinned.line !== undefined);
      assertLineNames(unpinned.message, JSON.stringify(keyRef), "content/_keys.json");
    }
    // A near miss is named, with its place, so the publisher sees why.
    assertLineNames(
      theProblem(result.stdout, "signature/unpinned-key", "content/space.json").message,
      `"${FIXTURE_KEY_REF}"`,
      "content/_keys.json:2:",
    );
    assert.doesNotMatch(result.stdout, /content\/good\.json/);
    assert.equal((await cli(root, "build")).status, 1);
    assert.equal(existsSync(join(root, "dist")), false);
  });

  it("a _keys.json that cannot be read is its one error, not also one per manifest; nothing is built", async () => {
    const broken = repository("keys-comma", {
      "content/_keys.json": JSON.stringify(pinning(publisher), null, 2).replace(/"\n}$/, '",\n}'),
      "content/a.json": signed(manifestFor("urn:a"), publisher),
      "content/b.json": signed(manifestFor("urn:b"), attacker),
    });
    const result = await cli(broken, "check");
    assert.equal(result.status, 1, result.output);
    assert.deepEqual(
      result.stdout
        .split("\n")
        .filter((line) => / - error /.test(line))
        .map((line) => line.replace(/:\d+:\d+ - error (\S+):.*/, " $1")),
      ["content/_keys.json json/syntax"],
    );
    assert.equal((await cli(broken, "build")).status, 1);
    assert.equal(existsSync(join(broken, "dist")), false);
  });

  it("without _keys.json: one warning per run that any embedded key is accepted; an error under --strict", async () => {
    const open = repository("open", {
      "content/a.json": signed(manifestFor("urn:a"), publisher),
      "content/b.json": signed(manifestFor("urn:b"), attacker),
    });
    const result = await cli(open, "check");
    assert.equal(result.status, 0, result.output);
    assert.equal(result.stdout.match(/- warning keys\/none-pinned/g)?.length, 1, result.stdout);
    assertAt(theProblem(result.stdout, "keys/none-pinned", "content/_keys.json"), "warning", undefined);
    const strict = await cli(open, "check", "--strict");
    assert.equal(strict.status, 1);
    assert.match(strict.stdout, /^content\/_keys\.json - error keys\/none-pinned: /m);
    const built = await cli(open, "build");
    assert.equal(built.status, 0, built.output);
    assert.equal(built.stdout.match(/- warning keys\/none-pinned/g)?.length, 1, built.stdout);
  });
});

describe("keyRefs that are their keys (did:key, did:jwk)", () => {
  const root = repository("did-key", {
    "content/consistent.json": signedAs("urn:consistent", publisher, didKeyRef(publisher)),
    "content/substituted.json": signedAs("urn:substituted", attacker, didKeyRef(publisher)),
    "content/other-fragment.json": signedAs(
      "urn:other-fragment",
      publisher,
      `${didKeyRef(publisher).split("#")[0]}#key-1`,
    ),
  });

  it("a manifest whose did:key keyRef names another key than the one it embeds and is signed by fails", async () => {
    const result = await cli(root, "check");
    assert.equal(result.status, 1, result.output);
    // Each at the member that is wrong: the embedded key, or the keyRef that names no key.
    assert.deepEqual(
      printedProblems(result.stdout)
        .filter((p) => p.severity === "error")
        .map((p) => [p.file, p.rule, p.line !== undefined]),
      [
        ["content/other-fragment.json", "signature/keyref-malformed", true],
        ["content/substituted.json", "signature/keyref-mismatch", true],
      ],
    );
    assert.equal((await cli(root, "build")).status, 1);
    assert.equal(existsSync(join(root, "dist")), false);
  });

  it("a _keys.json pin cannot make a did:key name another key: the manifest signed by the pinned key fails", async () => {
    // The attacker pins the publisher's did:key to the attacker's own key, and signs with it.
    const pinned = repository("did-key-pinned", {
      "content/_keys.json": { [didKeyRef(publisher)]: pinning(attacker)[FIXTURE_KEY_REF] },
      "content/substituted.json": signedAs("urn:substituted", attacker, didKeyRef(publisher)),
    });
    const result = await cli(pinned, "check");
    assert.equal(result.status, 1, result.output);
    assert.deepEqual(
      printedProblems(result.stdout)
        .filter((p) => p.severity === "error")
        .map((p) => [p.file, p.rule]),
      [["content/substituted.json", "signature/keyref-mismatch"]],
    );
  });

  it("a manifest whose did:key or did:jwk keyRef names the key it embeds and is signed by passes", async () => {
    const jwk = { kty: "OKP", crv: "Ed25519", x: Buffer.from(rawPublicKey(publisher)).toString("base64url") };
    const consistent = repository("did-key-consistent", {
      "content/key.json": signedAs("urn:key", publisher, didKeyRef(publisher)),
      "content/jwk.json": signedAs("urn:jwk", publisher, `${didJwkOf(jwk)}#0`),
    });
    const result = await cli(consistent, "check");
    assert.equal(result.status, 0, result.output);
    assert.deepEqual(problemPlaces(result.stdout), []);
  });
});

describe("one key file, one verdict", () => {
  // The attacker's pull request adds a key file of its own beside its manifest.
  const root = repository("one-file", {
    "content/_keys.json": pinning(publisher),
    "content/sub/_keys.json": pinning(attacker),
    "content/sub/forged.json": signed(manifestFor("urn:forged"), attacker),
    "keys/attacker.pem": attacker.export({ format: "pem", type: "pkcs8" }) as string,
  });
  const keyMismatch = /content\/sub\/forged\.json:\d+:\d+ - error signature\/key-mismatch: /;

  it("a _keys.json below the content root is an error naming it", async () => {
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    const misplaced = theProblem(result.stdout, "content/misplaced", "content/sub/_keys.json");
    assertAt(misplaced, "error", undefined);
    // It names the one that applies.
    assertLineNames(misplaced.message, "content/_keys.json");
    assert.match(result.stdout, keyMismatch);
  });

  it("check FILE, check FOLDER, check DIR, sign and build refuse the same file, from any working directory", async () => {
    for (const [cwd, args] of [
      [root, ["check", "content/sub/forged.json"]],
      [join(root, "content/sub"), ["check", "forged.json"]],
      [root, ["check", "content/sub"]],
      [root, ["check", "content"]],
    ] as const) {
      const result = await cli(cwd, ...args);
      assert.equal(result.status, 1, `${args.join(" ")} in ${cwd}:\n${result.output}`);
      // It names the keyRef, and where the root's _keys.json pins it.
      const [mismatch] = printedProblems(result.stdout).filter((p) => p.rule === "signature/key-mismatch");
      assert.equal(mismatch?.severity, "error", result.stdout);
      assertLineNames(mismatch!.message, `"${FIXTURE_KEY_REF}"`, "_keys.json:2:");
    }
    const built = await cli(root, "build");
    assert.equal(built.status, 1);
    assert.match(built.stdout, keyMismatch);
    const before = readFileSync(join(root, "content/sub/forged.json"), "utf8");
    const signing = await cli(
      root,
      "sign",
      "content/sub/forged.json",
      "--key",
      "keys/attacker.pem",
      "--key-ref",
      FIXTURE_KEY_REF,
    );
    assert.equal(signing.status, 1);
    assertLineNames(
      theProblem(signing.stdout, "sign/key-not-pinned").message,
      `"${FIXTURE_KEY_REF}"`,
      "content/_keys.json:2:",
    );
    assert.equal(readFileSync(join(root, "content/sub/forged.json"), "utf8"), before);
  });
});

describe("older payloads, validated by their own version", () => {
  const v01 = v01Payload();
  const v02 = {
    ...manifestFor("urn:legacy:v02"),
    "@context": "https://universalmanifest.net/ns/universal-manifest/v0.2/schema.jsonld",
    manifestVersion: "0.2",
    presentationProof: { note: "signed in v0.2" },
  };

  it("an unsigned v0.3 document with malformed facets is refused, not published", async () => {
    const root = repository("v03-junk", {
      "content/_keys.json": pinning(publisher),
      "content/junk.json": {
        ...manifestFor("urn:junk"),
        "@context": "https://universalmanifest.net/ns/v0.3",
        manifestVersion: "0.3",
        facets: "junk",
      },
    });
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    const facets = theProblem(result.stdout, "schema/type", "content/junk.json");
    assert.equal(facets.severity, "error");
    assert.ok(facets.message.endsWith(" at /facets"), facets.message);
    const unsigned = theProblem(result.stdout, "schema/required", "content/junk.json");
    assert.deepEqual([unsigned.severity, unsigned.line, unsigned.column], ["error", 1, 1]);
    assertLineNames(unsigned.message, '"signature"');
    assert.equal((await cli(root, "build")).status, 1);
  });

  it("v0.2 signatures cover every member but signature: a presentationProof changed after signing is caught", async () => {
    const good = signed(v02, publisher);
    const root = repository("v02", {
      "content/_keys.json": pinning(publisher),
      "content/good.json": good,
      "content/changed.json": {
        ...signed({ ...v02, "@id": "urn:legacy:v02-changed" }, publisher),
        presentationProof: { note: "changed" },
      },
    });
    const result = await cli(root, "check");
    assert.equal(result.status, 1, result.output);
    assert.match(result.stdout, /content\/changed\.json:\d+:\d+ - error signature\/invalid: /);
    assert.doesNotMatch(result.stdout, /content\/good\.json/);
  });

  it(
    "a v0.1 payload (no verifiable signature) is published only when _unsigned.json " +
      "opts in to exactly its content",
    async () => {
      const root = repository("v01", { "content/_keys.json": pinning(publisher), "content/old/profile.json": v01 });
      const refused = await cli(root, "check");
      assert.equal(refused.status, 1);
      const entry = `"old/profile.json": "${digestOf(v01)}"`;
      const unsigned = theProblem(refused.stdout, "legacy/unsigned", "content/old/profile.json");
      assert.deepEqual([unsigned.severity, unsigned.line, unsigned.column], ["error", 5, 22]);
      // The entry that opts it in, and the file to add it to.
      assertLineNames(unsigned.message, entry, "content/_unsigned.json");
      assert.equal((await cli(root, "build")).status, 1);
      // The command-line opt-in is for files outside a content folder: inside, check judges as build does.
      assert.equal(
        (await cli(root, "check", "content/old/profile.json", "--allow-unsigned", "content/old/profile.json")).status,
        1,
      );

      writeFileSync(join(root, "content/_unsigned.json"), `{\n  ${entry}\n}\n`);
      assert.equal((await cli(root, "check")).status, 0);
      const built = await cli(root, "build");
      assert.equal(built.status, 0, built.output);
      assert.ok(readRecords(join(root, "dist"))["urn:legacy:v01"]?.file);

      writeFileSync(
        join(root, "content/old/profile.json"),
        JSON.stringify({ ...v01, subject: "did:web:mallory.example" }, null, 2),
      );
      const changed = await cli(root, "check");
      assert.equal(changed.status, 1);
      const stale = theProblem(changed.stdout, "legacy/unsigned-changed", "content/old/profile.json");
      assert.deepEqual([stale.severity, stale.line, stale.column], ["error", 1, 1]);
      // Where it was opted in, and the digest it was opted in as.
      assertLineNames(stale.message, "content/_unsigned.json:2:", digestOf(v01));
    },
  );

  it("_unsigned.json entries must name files below the content root; a stale one is a warning", async () => {
    const root = repository("v01-entries", {
      "content/_keys.json": pinning(publisher),
      "content/_unsigned.json": { "../outside.json": digestOf(v01), "gone.json": digestOf(v01) },
      "content/a.json": signed(manifestFor("urn:a"), publisher),
    });
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    const outside = theProblem(result.stdout, "unsigned/path", "content/_unsigned.json");
    assertAt(outside, "error", 2);
    assertLineNames(outside.message, '"../outside.json"');
    const gone = theProblem(result.stdout, "unsigned/stale", "content/_unsigned.json");
    assertAt(gone, "warning", 3);
    assertLineNames(gone.message, '"gone.json"');
  });

  it("outside a content folder, check --allow-unsigned FILE opts one file in", async () => {
    const root = repository("v01-loose", {
      "suite/old.json": v01,
      "suite/other.json": { ...v01, "@id": "urn:legacy:other" },
    });
    assert.equal((await cli(root, "check", "suite/old.json")).status, 1);
    const result = await cli(
      root,
      "check",
      "--json",
      "suite/old.json",
      "suite/other.json",
      "--allow-unsigned",
      "suite/old.json",
    );
    assert.equal(result.status, 1);
    const verdicts = Object.fromEntries(
      result.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .map((l: { file: string; ok: boolean }) => [l.file, l.ok]),
    );
    assert.deepEqual(verdicts, { "suite/old.json": true, "suite/other.json": false });
  });
});

describe("private keys under content/", () => {
  const pem = publisher.export({ format: "pem", type: "pkcs8" }) as string;
  const root = repository("leak", {
    "content/_keys.json": pinning(publisher),
    "content/a.json": signed(manifestFor("urn:a"), publisher),
    "content/signing-key.pem": pem,
    "content/.backup/notes.txt": `old key:\n${pem}`,
    "content/blob.bin": Buffer.concat([Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(pem)]),
    "content/leaky.json": signed(
      manifestFor("urn:leaky", { pointers: [{ "@type": "ex:key", label: pem }] }),
      publisher,
    ),
  });

  it("fail the build wherever they are, saying to remove and rotate the key; nothing is written", async () => {
    const built = await cli(root, "build");
    assert.equal(built.status, 1);
    // Each at the line of the key's first line (anywhere, in a manifest's value), naming what was found there.
    for (const [file, place] of [
      ["content/signing-key.pem", [1, 1]],
      ["content/.backup/notes.txt", [2, 1]],
      ["content/blob.bin", [2, 1]],
      ["content/leaky.json", undefined],
    ] as const) {
      const leak = theProblem(built.stdout, "content/private-key", file);
      assert.equal(leak.severity, "error");
      if (place === undefined) assert.ok(leak.line !== undefined, file);
      else assert.deepEqual([leak.line, leak.column], place, file);
      assertLineNames(leak.message, "-----BEGIN PRIVATE KEY-----");
    }
    assert.equal(existsSync(join(root, "dist")), false);
  });
});

describe("symbolic links in content", () => {
  // git keeps a link, not what it points at: a pull request could change a linked
  // _routes.json or manifest (un-revoke, empty a UMID) with nothing for check --base to see.
  it("a linked _routes.json, manifest or folder is refused by check and build, and nothing is written", async () => {
    const root = repository("links", {
      ".git/HEAD": "ref: refs/heads/main\n",
      "content/_keys.json": pinning(publisher),
      "content/a.json": signed(manifestFor("urn:a"), publisher),
      "meta/routes.json": { revoked: [{ umid: "urn:gone", revokedAt: "2026-01-02T00:00:00Z" }] },
      "store/b.json": signed(manifestFor("urn:b"), publisher),
      "store/more/c.json": signed(manifestFor("urn:c"), publisher),
    });
    symlinkSync("../meta/routes.json", join(root, "content/_routes.json"));
    symlinkSync("../store/b.json", join(root, "content/b.json"));
    symlinkSync("../store/more", join(root, "content/more"));
    for (const command of ["check", "build"]) {
      const result = await cli(root, command);
      assert.equal(result.status, 1, result.output);
      for (const file of ["content/_routes.json", "content/b.json", "content/more"])
        assertAt(theProblem(result.output, "content/symlink", file), "error", undefined);
    }
    assert.equal(existsSync(join(root, "dist")), false);
  });

  it("a content folder reached through a link inside the repository is refused", async () => {
    const root = repository("linked-root", {
      ".git/HEAD": "ref: refs/heads/main\n",
      "data/_keys.json": pinning(publisher),
      "data/a.json": signed(manifestFor("urn:a"), publisher),
    });
    symlinkSync("data", join(root, "content"));
    const built = await cli(root, "build");
    assert.equal(built.status, 1, built.output);
    assertAt(theProblem(built.stdout, "content/symlink", "content"), "error", undefined);
    assert.equal(existsSync(join(root, "dist")), false);
  });
});

describe("strict Ed25519", () => {
  // The identity point as key and as R, with S = 0: OpenSSL verifies it for any message.
  const identity = Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]);
  const identitySpki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), identity]).toString("base64");
  const forged = (umid: string) => ({
    ...manifestFor(umid),
    signature: {
      algorithm: "Ed25519",
      canonicalization: "JCS-RFC8785",
      keyRef: "did:web:forger.example#k",
      publicKeySpkiB64: identitySpki,
      value: Buffer.concat([identity, Buffer.alloc(32)]).toString("base64url"),
    },
  });
  /** A real signature made malleable: S + L verifies under a lax verifier. */
  const malleated = (umid: string) => {
    const good = signed(manifestFor(umid), publisher) as { signature: { value: string } };
    const bytes = Buffer.from(good.signature.value, "base64url");
    let s =
      BigInt(`0x${Buffer.from(bytes.subarray(32)).reverse().toString("hex")}`) +
      2n ** 252n +
      27742317777372353535851937790883648493n;
    const sBytes = Buffer.alloc(32);
    for (let i = 0; i < 32; i++, s >>= 8n) sBytes[i] = Number(s & 0xffn);
    return {
      ...good,
      signature: { ...good.signature, value: Buffer.concat([bytes.subarray(0, 32), sBytes]).toString("base64url") },
    };
  };

  it("a small-order key that verifies anything is refused by check and build: signature/weak-key", async () => {
    const root = repository("weak-key", { "content/forged.json": forged("urn:forged") });
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    assert.ok(theProblem(result.stdout, "signature/weak-key", "content/forged.json").line !== undefined);
    assert.equal((await cli(root, "build")).status, 1);
    assert.equal(existsSync(join(root, "dist")), false);
  });

  it("S not below the group order is refused: signature/invalid", async () => {
    const root = repository("malleated", {
      "content/_keys.json": pinning(publisher),
      "content/m.json": malleated("urn:malleated"),
    });
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    assert.match(result.stdout, /content\/m\.json:\d+:\d+ - error signature\/invalid: /);
  });

  it("_keys.json cannot pin a small-order key", async () => {
    const root = repository("weak-pin", {
      "content/_keys.json": { "did:web:forger.example#k": identitySpki },
      "content/forged.json": forged("urn:forged"),
    });
    const result = await cli(root, "check");
    assert.equal(result.status, 1);
    assert.match(result.stdout, /content\/_keys\.json:2:\d+ - error keys\/weak-key: /);
  });
});

describe("numbers keep their value", () => {
  const text = (spelling: string) =>
    `{\n  "@context": "https://universalmanifest.net/ns/v0.4",\n  "@id": ` +
    `"urn:number",\n  "@type": "um:Manifest",\n  "manifestVersion": "0.4",\n  ` +
    `"subject": "did:web:fixture.example",\n  "issuedAt": "2026-01-01T00:00:00Z",\n  ` +
    `"expiresAt": "2030-01-01T00:00:00Z",\n  "devices": [{ "serial": ${spelling} ` +
    `}]\n}\n`;

  it(
    "an integer beyond ±(2^53-1) is refused by check, build and sign at the place " + "written, however it is spelt",
    async () => {
      for (const spelling of ["9007199254740993.0", "9.007199254740993e15"]) {
        const root = repository(`number-${spelling}`, {
          "content/_keys.json": pinning(publisher),
          "content/n.json": text(spelling),
          "keys/publisher.pem": publisher.export({ format: "pem", type: "pkcs8" }) as string,
        });
        /** The one json/unsafe-integer problem, at the number, quoting it as written. */
        const assertRefused = (stdout: string) => {
          const unsafe = theProblem(stdout, "json/unsafe-integer", "content/n.json");
          assert.deepEqual([unsafe.severity, unsafe.line, unsafe.column], ["error", 9, 27]);
          assertLineNames(unsafe.message, ` ${spelling} `);
        };
        const signing = await cli(
          root,
          "sign",
          "content/n.json",
          "--key",
          "keys/publisher.pem",
          "--key-ref",
          FIXTURE_KEY_REF,
        );
        assert.equal(signing.status, 1, spelling);
        assertRefused(signing.stdout);
        assert.equal(readFileSync(join(root, "content/n.json"), "utf8"), text(spelling), "the file is left as it was");
        assertRefused((await cli(root, "check")).stdout);
        const built = await cli(root, "build");
        assert.equal(built.status, 1);
        assertRefused(built.stdout);
      }
    },
  );
});

describe("output cannot be forged by file names", () => {
  const injected = "x\n::error file=README.md,line=1::forged\n.json";
  const root = repository("names", {
    "content/_keys.json": pinning(publisher),
    [`content/${injected}`]: "{ not json",
    "content/\u202etxt.json": {
      ...signed(manifestFor("urn:\u202eevil"), publisher),
      subject: "did:web:changed.example",
    },
    "content/y##[error]forged.json": "{ not json",
  });

  it("under GitHub Actions, no line but the real annotations starts a workflow command", async () => {
    const result = await cliWith({ GITHUB_ACTIONS: "true" }, root, "check");
    assert.equal(result.status, 1);
    const lines = result.stdout.split("\n");
    assert.ok(!lines.includes("::error file=README.md,line=1::forged"), result.stdout);
    for (const line of lines.filter((l) => l.trimStart().startsWith("::")))
      assert.match(line, /^::(error|warning) file=content\//, line);
    assert.ok(!lines.some((l) => l.includes("##[")), "the runner's older syntax, anywhere in a line");
    const json = await cliWith({ GITHUB_ACTIONS: "true" }, root, "check", "--json");
    assert.doesNotMatch(json.stdout, /##\[|\u202e/);
    assert.ok(
      json.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).file)
        .includes("content/y##[error]forged.json"),
      "the JSON values are intact",
    );
    assert.ok(
      lines.some((l) =>
        l.startsWith("content/x\\n::error file=README.md,line=1::forged\\n.json:1:3 - error json/syntax: "),
      ),
      result.stdout,
    );
  });

  it("bidirectional overrides, in a file name or a quoted value, are shown escaped", async () => {
    const result = await cli(root, "check");
    assert.doesNotMatch(result.output, /\u202e/);
    assert.match(result.stdout, /^content\/\\u202etxt\.json:\d+:\d+ - error signature\/invalid: /m);
  });
});

describe("one rule for redirect locations", () => {
  // The four, then what URL parsers would repair into another target.
  const bad = [
    "http://",
    "https:///etc/passwd",
    `https://long.example/${"a".repeat(100_000)}`,
    "https://user:pass@host.example/m",
    "https:\\\\evil.example/",
    "https://host.example/a b",
    "https://host.example/\tx",
    "https://host.example/\nx",
    "https:/one-slash.example/",
    // Issue 37: plain http to another host than loopback, which every client refuses to follow.
    "http://elsewhere.example/x",
  ];
  const root = repository("locations", {
    "content/_keys.json": pinning(publisher),
    "content/a.json": signed(manifestFor("urn:a"), publisher),
    "content/_routes.json": { redirects: bad.map((location, i) => ({ umid: `urn:moved:${i}`, location })) },
  });
  // Each entry takes four lines of the file; its location's value starts at column 19. The reason is the one the
  // redirect rule gives (tests/unit/redirect-location.test.ts).
  const expected = bad.map(
    (location, i) =>
      `content/_routes.json:${5 + 4 * i}:19 - error schema/redirect-location: ` +
      `${redirectLocationProblem(location, "")} at /redirects/${i}/location`,
  );

  it("check and build refuse each bad location in _routes.json, at its place, with its reason", async () => {
    const checked = await cli(root, "check");
    assert.equal(checked.status, 1);
    assert.deepEqual(
      checked.stdout.split("\n").filter((line) => line.includes("_routes.json")),
      expected,
    );
    const built = await cli(root, "build");
    assert.equal(built.status, 1);
    assert.deepEqual(
      built.stdout.split("\n").filter((line) => line.includes("_routes.json")),
      expected,
    );
    assert.equal(existsSync(join(root, "dist")), false);
  });

  it("check and build refuse a local or private location for a resolver that is not on one, as clients do", async () => {
    // Issue 37: every client asking a public resolver refuses to follow these (core/secure-url.ts).
    const inward = [
      "https://10.0.0.1/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://0.0.0.0/x",
      "http://localhost:8080/m",
    ];
    const local = repository("locations-inward", {
      "content/_keys.json": pinning(publisher),
      "content/a.json": signed(manifestFor("urn:a"), publisher),
      "content/_routes.json": { redirects: inward.map((location, i) => ({ umid: `urn:inward:${i}`, location })) },
    });
    const remote = { UM_RESOLVER_URL: "https://resolver.example" };
    const refused = inward.map(
      (location, i) =>
        `content/_routes.json:${5 + 4 * i}:19 - error schema/redirect-location: ` +
        `${redirectLocationProblem(location, remote.UM_RESOLVER_URL)} at /redirects/${i}/location`,
    );
    for (const command of ["check", "build"]) {
      const result = await cliWith(remote, local, command);
      assert.equal(result.status, 1, result.output);
      assert.deepEqual(
        result.stdout.split("\n").filter((line) => line.includes("_routes.json")),
        refused,
      );
    }
    assert.equal(existsSync(join(local, "dist")), false);
    // A trial on this machine: the resolver is on loopback too, and its clients follow these.
    const trial = await cliWith({ UM_RESOLVER_URL: "http://localhost:8787" }, local, "build");
    assert.equal(trial.status, 0, trial.output);
    assert.equal(readRecords(join(local, "dist"))["urn:inward:0"]?.redirect, inward[0]);
  });

  it("a scheme in capitals is the same URL: accepted, and served as written", async () => {
    const accepted = repository("locations-accepted", {
      "content/_keys.json": pinning(publisher),
      "content/a.json": signed(manifestFor("urn:a"), publisher),
      "content/_routes.json": { redirects: [{ umid: "urn:upper", location: "HTTPS://Canonical.Example/M" }] },
    });
    const built = await cli(accepted, "build");
    assert.equal(built.status, 0, built.output);
    assert.equal(readRecords(join(accepted, "dist"))["urn:upper"]?.redirect, "HTTPS://Canonical.Example/M");
  });
});
