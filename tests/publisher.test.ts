/**
 * The publisher's tools, as the README's walkthrough uses them: keygen, new, sign, check,
 * revoke, redirect, build, serve, probe; then what each refuses.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { resolveKeyRefLocally } from "../core/did/resolve-key-ref.ts";
import { excerpt, quoted } from "../core/excerpt.ts";
import { redirectLocationProblem } from "../core/validate/redirect-location.ts";
import { manifestFor, signed, newKey } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { assertLineNames, assertUsageError, printedProblems, problemPlaces, theProblem } from "./support/problems.ts";
import { servedAt, startPrintingUrl } from "./support/processes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-publisher-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const cli = (args: string[], cwd = scratch, env: Record<string, string> = {}) => runCliInProcess(args, cwd, env);

const read = (path: string) => readFileSync(join(scratch, path), "utf8");
const write = (path: string, text: string) => {
  mkdirSync(join(scratch, path, ".."), { recursive: true });
  writeFileSync(join(scratch, path), text);
};

/** A line of probe's, `ok    CHECK: DETAIL` or `FAIL  CHECK: FAILURE`. */
interface ProbeLine {
  passed: boolean;
  check: string;
  detail: string;
}

function probeLines(stdout: string): ProbeLine[] {
  return stdout.split("\n").flatMap((line) => {
    const match = /^(ok {4}|FAIL {2})(.+?)(?:: (.*))?$/.exec(line);
    return match === null ? [] : [{ passed: match[1] === "ok    ", check: match[2]!, detail: match[3] ?? "" }];
  });
}

/** The first check of `request` (`GET /path`): the check named so, or one that goes on to say what it expects. */
function probeOf(stdout: string, request: string): ProbeLine {
  const line = probeLines(stdout).find((l) => l.check === request || l.check.startsWith(`${request} `));
  assert.ok(line, `no check of ${request} in:\n${stdout}`);
  return line;
}

describe("from a new key to a probed resolver", () => {
  const keyRef = "did:web:you.example#key-1";

  it("walks the README's steps, in its order", async () => {
    // 1. An empty content folder in a repository of its own.
    write("walk/package.json", "{}\n");
    mkdirSync(join(scratch, "walk/content"));
    const repo = join(scratch, "walk");
    const run = (...args: string[]) => cli(args, repo);
    const home = mkdtempSync(join(tmpdir(), "um-home-"));

    // 2. keygen makes the folder, owner-only, pins the key in _keys.json and makes its keyRef the project's.
    const keyFile = join(home, ".manifest-keys/signing.pem");
    const made = await run("keygen", "--file", keyFile, "--key-ref", keyRef);
    assert.equal(made.status, 0, made.stderr);
    assert.equal(statSync(join(home, ".manifest-keys")).mode & 0o777, 0o700);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    const pem = readFileSync(keyFile, "utf8");
    const spki = createPublicKey(createPrivateKey(pem)).export({ format: "der", type: "spki" }).toString("base64");
    assert.ok(
      !made.stdout.includes("PRIVATE") && !made.stdout.includes(pem.split("\n")[1]!),
      "never prints the private key",
    );
    assertLineNames(made.stdout, "content/_keys.json", keyRef);
    assert.deepEqual(JSON.parse(read("walk/content/_keys.json")), { [keyRef]: spki });

    // 3. new.
    const created = await run("new", "--subject", "did:web:you.example", "--file", "content/me.jsonld");
    assert.equal(created.status, 0, created.stderr);
    const skeleton = JSON.parse(read("walk/content/me.jsonld"));
    const umid: string = skeleton["@id"];
    assert.match(umid, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.ok(created.stdout.includes(umid), "new prints the UMID");
    assert.equal(skeleton.subject, "did:web:you.example");
    const lifetime = Date.parse(skeleton.expiresAt) - Date.parse(skeleton.issuedAt);
    assert.equal(lifetime, 365 * 86_400_000);
    assert.ok(Math.abs(Date.parse(skeleton.issuedAt) - Date.now()) < 60_000);
    const unsigned = await run("check", "--offline", "--offline");
    assert.equal(unsigned.status, 1);
    assert.deepEqual(problemPlaces(unsigned.stdout), [["content/me.jsonld", "schema/required", 1, 1]]);
    assert.ok(theProblem(unsigned.stdout, "schema/required").message.includes('"signature"'));

    // 4. sign.
    // The keyRef is the project's now (keygen set it); the key is named, being outside the keys folder.
    const signing = await run("sign", "content/me.jsonld", "--key", keyFile);
    assert.equal(signing.status, 0, signing.stderr);
    assert.equal(signing.stdout, `signed content/me.jsonld (keyRef ${keyRef})\n`);
    assert.equal(JSON.parse(read("walk/content/me.jsonld")).signature.publicKeySpkiB64, spki);

    // 5. check, build, serve, probe.
    const checked = await run("check", "--offline", "--offline");
    assert.equal(checked.status, 0, checked.stdout);
    assert.deepEqual(printedProblems(checked.stdout), []);
    const built = await run("build");
    assert.equal(built.status, 0, built.stderr);
    // serve as the README runs it, from the repository: its dist/, and the lookup page (free ports here).
    const server = await startPrintingUrl(
      process.execPath,
      [CLI, "serve", "--port", "0", "--ui-port", "0"],
      process.env,
      2,
      repo,
    );
    try {
      const probe = await run("probe", servedAt(server).resolver, umid);
      assert.equal(probe.status, 0, probe.stdout);
      const checks = probeLines(probe.stdout);
      assert.equal(checks.length, 16, probe.stdout);
      assert.deepEqual(
        checks.filter((check) => !check.passed),
        [],
      );
      const page = await fetch(servedAt(server).page);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    } finally {
      await server.stop();
    }

    // 6. revoke and redirect.
    assert.equal((await run("revoke", umid, "--reason", "superseded")).status, 0);
    assert.equal(
      (
        await run(
          "redirect",
          "urn:uuid:00000000-0000-4000-8000-00000000beef",
          "https://manifests.elsewhere.example/m/1",
        )
      ).status,
      0,
    );
    assert.equal((await run("build")).status, 1, "nothing left to publish");
    assert.equal((await run("build", "--allow-empty")).status, 0);
    const again = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", join(repo, "dist"), "--port", "0"]);
    try {
      const probe = await run("probe", again.url, umid, "urn:uuid:00000000-0000-4000-8000-00000000beef");
      assert.equal(probe.status, 0, probe.stdout);
      const gone = probeOf(probe.stdout, `GET /${encodeURIComponent(umid)}`);
      assert.deepEqual([gone.passed, gone.detail.split(" ")[0]], [true, "410"]);
      const moved = probeOf(probe.stdout, "GET /urn%3Auuid%3A00000000-0000-4000-8000-00000000beef");
      assert.deepEqual([moved.passed, moved.detail.split(" ")[0]], [true, "307"]);
      assert.ok(moved.detail.endsWith(" https://manifests.elsewhere.example/m/1"), moved.detail);
    } finally {
      await again.stop();
    }
    rmSync(home, { recursive: true, force: true });
  });
});

describe("keygen and new refuse to lose anything", () => {
  it("keygen never overwrites a key, nor writes one under content/", async () => {
    write("existing.pem", "precious");
    const result = await cli(["keygen", "--file", "existing.pem"]);
    assert.equal(result.status, 1);
    assertLineNames(result.stderr, "manifest-resolver: ", "existing.pem", "--file");
    assert.equal(read("existing.pem"), "precious");
  });
  it("keygen and new take --out, the old spelling of --file, with a warning that names the new one", async () => {
    const result = await cli(["keygen", "--out", join(scratch, "old-spelling.pem")]);
    assert.equal(result.status, 0, result.stderr);
    assertLineNames(result.stderr, "--out", "--file");
    assert.ok(existsSync(join(scratch, "old-spelling.pem")));
    assertUsageError(await cli(["keygen", "--out", "a.pem", "--file", "b.pem"]), "--file");
    const skeleton = await cli([
      "new",
      "--subject",
      "did:web:you.example",
      "--out",
      join(scratch, "old-spelling.json"),
    ]);
    assert.equal(skeleton.status, 0, skeleton.stderr);
    assertLineNames(skeleton.stderr, "--out", "--file");
    assert.equal(JSON.parse(read("old-spelling.json")).subject, "did:web:you.example");
  });
  it(
    "keygen finds the repository's content folder from anywhere, by real path: no " +
      "key gets in through a link or from inside",
    async () => {
      write("keyrepo/package.json", "{}\n");
      mkdirSync(join(scratch, "keyrepo/content/people"), { recursive: true });
      symlinkSync(join(scratch, "keyrepo/content"), join(scratch, "keyrepo/link"));
      const repo = join(scratch, "keyrepo");
      for (const [cwd, out] of [
        [repo, "content/deep/key.pem"],
        [repo, "link/key.pem"],
        [join(repo, "content/people"), "key.pem"],
        [join(repo, "content/people"), "../../content/key.pem"],
      ] as const) {
        const result = await cli(["keygen", "--file", out], cwd);
        assert.equal(result.status, 1, `${out} from ${cwd}`);
        // It names the content folder, as seen from where it was run, and the option to change.
        assertLineNames(result.stderr, "manifest-resolver: ", cwd === repo ? "(content)" : "(..)", "--file");
      }
      assert.deepEqual(readdirSync(join(repo, "content"), { recursive: true }), ["people"], "nothing was written");
    },
  );
  it("new prints to stdout without --out, and keeps an existing file", async () => {
    const printed = await cli(["new", "--subject", "did:web:you.example"]);
    assert.equal(JSON.parse(printed.stdout).manifestVersion, "0.4");
    write("taken.json", "mine");
    assert.equal((await cli(["new", "--subject", "did:web:you.example", "--file", "taken.json"])).status, 1);
    assert.equal(read("taken.json"), "mine");
  });
  it("new never makes a subject up: the DID of the one pinned key, else it asks; a subject must be a URI", async () => {
    write("subject1/package.json", "{}\n");
    write(
      "subject1/content/_keys.json",
      '{"did:web:me.example#key-1": "MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s="}',
    );
    const one = await cli(["new"], join(scratch, "subject1"));
    assert.equal(one.status, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).subject, "did:web:me.example");
    write("subject2/package.json", "{}\n");
    const none = await cli(["new"], join(scratch, "subject2"));
    assertUsageError(none, "--subject", "content/_keys.json");
    write(
      "subject2/content/_keys.json",
      '{"did:web:a.example#k": ' +
        '"MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s=", ' +
        '"did:web:b.example#k": ' +
        '"MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s="}',
    );
    assertUsageError(await cli(["new"], join(scratch, "subject2")), "--subject", "content/_keys.json", " 2 ");
    assertUsageError(await cli(["new", "--subject", "alice"]), "--subject", "'alice'");
  });
});

describe("keygen's pinning", () => {
  const spkiOf = (pemFile: string) =>
    createPublicKey(createPrivateKey(readFileSync(pemFile, "utf8")))
      .export({ format: "der", type: "spki" })
      .toString("base64");

  it("prints the key's did:key, and for a did:web keyRef the verification method for its did.json", async () => {
    const keyFile = join(scratch, "didkeys/one.pem");
    const made = await cli(["keygen", "--file", keyFile, "--key-ref", "did:web:keys.example#k1"]);
    assert.equal(made.status, 0, made.stderr);
    const raw = Buffer.from(spkiOf(keyFile), "base64").subarray(12);
    const keyRef = /^as a did:key: \S+ \(keyRef (\S+)\)$/m.exec(made.stdout)?.[1];
    assert.ok(keyRef, made.stdout);
    assert.deepEqual(resolveKeyRefLocally(keyRef), { kind: "resolved", publicKey: new Uint8Array(raw) });
    const method = JSON.parse(/did\.json of did:web:keys\.example .*\n {2}(.*)$/m.exec(made.stdout)![1]!);
    assert.deepEqual(method, {
      id: "did:web:keys.example#k1",
      type: "Multikey",
      controller: "did:web:keys.example",
      publicKeyMultibase: keyRef.split("#")[1],
    });
    const plain = await cli(["keygen", "--file", join(scratch, "didkeys/two.pem"), "--key-ref", "urn:key:2"]);
    assert.doesNotMatch(plain.stdout, /did\.json/, "no did.json for a keyRef that is not did:web");
  });

  it("pins the key in the repository's _keys.json from any folder of it, keeping its pins and layout", async () => {
    write("pinrepo/package.json", "{}\n");
    const old = '{\n    "did:web:old.example#k": "MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s="\n}\n';
    write("pinrepo/content/_keys.json", old);
    mkdirSync(join(scratch, "pinrepo/scripts"));
    const made = await cli(
      ["keygen", "--file", "../../pinkeys/second.pem", "--key-ref", "did:web:new.example#k"],
      join(scratch, "pinrepo/scripts"),
    );
    assert.equal(made.status, 0, made.stderr);
    assertLineNames(made.stdout, "../content/_keys.json", "did:web:new.example#k");
    const pins = read("pinrepo/content/_keys.json");
    assert.deepEqual(JSON.parse(pins), {
      "did:web:old.example#k": "MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s=",
      "did:web:new.example#k": spkiOf(join(scratch, "pinkeys/second.pem")),
    });
    assert.ok(pins.startsWith('{\n    "did:web:old'), "four spaces, as the file was");
  });

  it("refuses a keyRef pinned already, naming it and how to rotate, and makes no key", async () => {
    write("againrepo/package.json", "{}\n");
    const pinned = '{"did:web:you.example#key-1": "MCowBQYDK2VwAyEAL52Xiba5eV3GQGRRSpJv1Nosly8u8t0vka3u9Lco46s="}\n';
    write("againrepo/content/_keys.json", pinned);
    const file = join(scratch, "againkeys/again.pem");
    const made = await cli(
      ["keygen", "--file", file, "--key-ref", "did:web:you.example#key-1"],
      join(scratch, "againrepo"),
    );
    assert.equal(made.status, 1, made.stderr);
    assertLineNames(made.stderr, '"did:web:you.example#key-1"', "content/_keys.json", "--key-ref");
    assert.ok(!existsSync(file), "no key made for nothing");
    assert.equal(read("againrepo/content/_keys.json"), pinned);
  });

  it(
    "escapes what it quotes: a file name cannot start a line of its own, and the " + "entry stays the same JSON",
    async () => {
      const out = "odd\n::error file=README.md::forged\u202e.pem";
      const keyRef = "did:web:odd.example#\u202ek";
      const made = await cli(["keygen", "--file", out, "--key-ref", keyRef]);
      assert.equal(made.status, 0, made.stderr);
      assert.ok(existsSync(join(scratch, out)));
      assert.match(made.stdout, /^wrote the private key to odd\\n::error file=README\.md::forged\\u202e\.pem /);
      assert.ok(!/[\u202e]/.test(made.stdout));
      // Outside a repository with a content folder, the entry to pin is printed, escaped as JSON escapes it.
      const entry = /^ {2}(".*": ".*")$/m.exec(made.stdout)?.[1];
      assert.deepEqual(JSON.parse(`{${entry}}`), { [keyRef]: spkiOf(join(scratch, out)) });
      const again = await cli(["keygen", "--file", out]);
      assert.equal(again.status, 1);
      assert.match(
        again.stderr,
        /^manifest-resolver: cannot write odd\\n::error file=README\.md::forged\\u202e\.pem: it exists/,
      );
    },
  );
});

describe("keygen's roles", () => {
  it("a role it does not know, or a keyRef for a key that signs no manifest, is a usage error", async () => {
    assertUsageError(
      await cli(["keygen", "--role", "signer", "--file", join(scratch, "rolehome/x.pem")]),
      "--role",
      "'signer'",
    );
    assertUsageError(
      await cli([
        "keygen",
        "--role",
        "log",
        "--key-ref",
        "did:web:x.example#k",
        "--file",
        join(scratch, "rolehome/y.pem"),
      ]),
      "--key-ref",
      "--role log",
    );
    assert.equal(existsSync(join(scratch, "rolehome/x.pem")) || existsSync(join(scratch, "rolehome/y.pem")), false);
  });
});

describe("sign", () => {
  const key = newKey();
  const pem = key.export({ format: "pem", type: "pkcs8" }) as string;
  write("sign/key.pem", pem);
  const unsigned = (umid: string) => {
    const { signature: _, ...rest } = signed(manifestFor(umid), key);
    return rest;
  };

  it("keeps each file's indentation and member order", async () => {
    write("sign/tabs.json", `${JSON.stringify({ ...unsigned("urn:tabs"), "ex:last": 1 }, null, "\t")}\n`);
    write("sign/four.json", JSON.stringify(unsigned("urn:four"), null, 4));
    write("sign/line.json", JSON.stringify(unsigned("urn:line")));
    const result = await cli([
      "sign",
      "sign/tabs.json",
      "sign/four.json",
      "sign/line.json",
      "--key",
      "sign/key.pem",
      "--key-ref",
      "did:web:k#1",
    ]);
    assert.equal(result.status, 0, result.stderr);
    const tabs = read("sign/tabs.json");
    assert.match(tabs, /^\{\n\t"@context"/);
    assert.ok(tabs.endsWith("\n\t}\n}\n"));
    assert.deepEqual(Object.keys(JSON.parse(tabs)).slice(-2), ["ex:last", "signature"]);
    assert.match(read("sign/four.json"), /^\{\n {4}"@context"[\s\S]*\}$/);
    assert.ok(!read("sign/line.json").includes("\n"));
    assert.equal((await cli(["check", "--offline", "sign/tabs.json", "sign/four.json", "sign/line.json"])).status, 0);
  });
  it("re-signs in place, keeping other signature members", async () => {
    const old = signed(manifestFor("urn:resign"), newKey());
    (old.signature as Record<string, string>).statusRef = "https://status.example/1";
    write("sign/resign.json", JSON.stringify({ ...old, subject: "did:web:changed.example" }, null, 2));
    assert.equal((await cli(["check", "--offline", "sign/resign.json"])).status, 1);
    assert.equal(
      (await cli(["sign", "sign/resign.json", "--key", "sign/key.pem", "--key-ref", "did:web:k#1"])).status,
      0,
    );
    const resigned = JSON.parse(read("sign/resign.json"));
    assert.equal(resigned.signature.statusRef, "https://status.example/1");
    assert.equal(resigned.signature.keyRef, "did:web:k#1");
    assert.equal((await cli(["check", "--offline", "sign/resign.json"])).status, 0);
  });
  it("refuses a file invalid for another reason, leaving it as it was, and signs the rest", async () => {
    const { subject: _, ...noSubject } = unsigned("urn:nosubject");
    const text = JSON.stringify(noSubject, null, 2);
    write("sign/bad.json", text);
    write("sign/good.json", JSON.stringify(unsigned("urn:good"), null, 2));
    const result = await cli([
      "sign",
      "sign/bad.json",
      "sign/good.json",
      "--key",
      "sign/key.pem",
      "--key-ref",
      "did:web:k#1",
    ]);
    assert.equal(result.status, 1);
    // Problems and what was signed, on stdout in the order they happened, as check prints problems.
    const [problem, refused, signedGood, count, ...rest] = result.stdout.split("\n");
    assert.deepEqual(problemPlaces(problem!), [["sign/bad.json", "schema/required", 1, 1]]);
    assert.ok(problem!.includes('"subject"'), problem);
    assert.deepEqual(printedProblems(refused!), []);
    assertLineNames(refused!, "sign/bad.json");
    assert.equal(signedGood, "signed sign/good.json (keyRef did:web:k#1)");
    assertLineNames(count!, "1 of 2");
    assert.deepEqual(rest, [""]);
    assert.equal(result.stderr, "");
    assert.equal(read("sign/bad.json"), text);
  });
  it("refuses a key that is not the one pinned for the keyRef", async () => {
    write(
      "pinned/_keys.json",
      JSON.stringify({
        "did:web:k#pinned": createPublicKey(newKey()).export({ format: "der", type: "spki" }).toString("base64"),
      }),
    );
    write("pinned/a.json", JSON.stringify(unsigned("urn:pinned")));
    const result = await cli([
      "sign",
      "pinned/a.json",
      "--key",
      "sign/key.pem",
      "--key-ref",
      "did:web:k#pinned",
      "--content",
      "pinned",
    ]);
    assert.equal(result.status, 1);
    assert.deepEqual(problemPlaces(result.stdout), [["pinned/a.json", "sign/key-not-pinned"]]);
    // It names the keyRef, and where it is pinned.
    assertLineNames(result.stdout, "pinned/a.json", '"did:web:k#pinned"', "pinned/_keys.json:1:2");
  });
  it("says what is wrong with a missing, unreadable or unsuitable key, or a missing file", async () => {
    write(
      "sign/rsa.pem",
      generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ format: "pem", type: "pkcs8" }) as string,
    );
    write("sign/garbage.pem", "not a key");
    // A key that cannot be used stops the run (stderr), naming the key and what it is or needs to be.
    const cases: [string, string[]][] = [
      ["sign/none.pem", []],
      ["sign/rsa.pem", ["rsa", "Ed25519"]],
      ["sign/garbage.pem", ["PEM"]],
    ];
    for (const [keyFile, named] of cases) {
      const result = await cli(["sign", "sign/good.json", "--key", keyFile, "--key-ref", "k"]);
      assert.equal(result.status, 1, keyFile);
      assert.equal(result.stdout, "", keyFile);
      assertLineNames(result.stderr, "manifest-resolver: ", keyFile, ...named);
    }
    // A file's problem is a problem (stdout).
    const missing = await cli(["sign", "sign/missing.json", "--key", "sign/key.pem", "--key-ref", "k"]);
    assert.equal(missing.status, 1);
    assert.deepEqual(problemPlaces(missing.stdout), [["sign/missing.json", "file/unreadable"]]);
    assert.equal((await cli(["sign", "sign/good.json", "--key", "sign/key.pem"])).status, 2);
  });
});

describe("revoke and redirect", () => {
  const key = newKey();
  write("routes/content/published.json", JSON.stringify(signed(manifestFor("urn:published"), key), null, 2));
  const routes = () => JSON.parse(read("routes/content/_routes.json"));
  const edit = (...args: string[]) => cli([...args, "--content", "routes/content"]);

  it("creates _routes.json, keeps order, adds new entries last, never twice", async () => {
    assert.equal((await edit("redirect", "urn:b", "https://b.example/")).status, 0);
    assert.equal((await edit("redirect", "urn:a", "https://a.example/")).status, 0);
    const again = await edit("redirect", "urn:b", "https://b.example/");
    assert.equal(again.status, 0);
    assertLineNames(again.stdout, "urn:b", "https://b.example/");
    const moved = await edit("redirect", "urn:b", "https://b2.example/");
    assert.equal(moved.status, 0);
    // The new location, the old one and where it was.
    assertLineNames(
      moved.stdout,
      "urn:b",
      "https://b2.example/",
      "https://b.example/",
      "routes/content/_routes.json:4:15",
    );
    assert.deepEqual(routes().redirects, [
      { umid: "urn:b", location: "https://b2.example/" },
      { umid: "urn:a", location: "https://a.example/" },
    ]);

    const revoked = await edit("revoke", "urn:published", "--reason", "superseded");
    assert.equal(revoked.status, 0);
    // The manifest no longer published, at its place.
    assertLineNames(revoked.stdout, "urn:published", "routes/content/published.json:3:10");
    const twice = await edit("revoke", "urn:published");
    assert.equal(twice.status, 0);
    // The revocation there is already, at its place.
    assertLineNames(twice.stdout, "urn:published", "routes/content/_routes.json:14:15");
    assert.equal(routes().revoked.length, 1);
    const [entry] = routes().revoked;
    assert.equal(entry.umid, "urn:published");
    assert.equal(entry.reason, "superseded");
    assert.ok(Math.abs(Date.parse(entry.revokedAt) - Date.now()) < 60_000);
    assert.equal((await cli(["check", "--offline", "routes/content"])).status, 0);
  });
  it("refuses a second fate, and a redirect of what a manifest publishes", async () => {
    write("routes2/content/published.json", JSON.stringify(signed(manifestFor("urn:published"), key), null, 2));
    const edit2 = (...args: string[]) => cli([...args, "--content", "routes2/content"]);
    assert.equal((await edit2("redirect", "urn:x", "https://x.example/")).status, 0);
    assert.equal((await edit2("revoke", "urn:y", "--unpublished")).status, 0);
    const before = read("routes2/content/_routes.json");
    // Each names the UMID and the place of the fate it has already.
    const cases: [string[], string][] = [
      [["revoke", "urn:x"], "routes2/content/_routes.json:4:15"],
      [["redirect", "urn:y", "https://y.example/"], "routes2/content/_routes.json:10:15"],
      [["redirect", "urn:published", "https://p.example/"], "routes2/content/published.json:3:10"],
    ];
    for (const [args, place] of cases) {
      const result = await edit2(...args);
      assert.equal(result.status, 1, args.join(" "));
      assertLineNames(result.stderr, "manifest-resolver: ", args[1]!, place);
    }
    assert.equal(read("routes2/content/_routes.json"), before);
  });
  it(
    "refuses to revoke a UMID no manifest publishes, naming the nearest published " + "ones, unless --unpublished",
    async () => {
      for (const umid of [
        "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f",
        "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e60",
        "urn:other",
      ]) {
        write(`routes4/content/${umid.slice(-4)}.json`, JSON.stringify(signed(manifestFor(umid), key), null, 2));
      }
      const edit4 = (...args: string[]) => cli([...args, "--content", "routes4/content"]);
      const typo = await edit4("revoke", "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5e");
      assert.equal(typo.status, 1);
      // One line: the UMID typed, the two nearest published (not the far one), each at its place, and the flag.
      assert.equal(typo.stderr.split("\n").length, 2, typo.stderr);
      assertLineNames(
        typo.stderr,
        "manifest-resolver: ",
        "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5e",
        "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5f (routes4/content/4e5f.json:3:10)",
        "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e60 (routes4/content/4e60.json:3:10)",
        "--unpublished",
      );
      assert.ok(!typo.stderr.includes("urn:other"), typo.stderr);
      assert.equal(existsSync(join(scratch, "routes4/content/_routes.json")), false);
      const meant = await edit4("revoke", "urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5e", "--unpublished");
      assert.equal(meant.status, 0, meant.stderr);
      assert.deepEqual(
        JSON.parse(read("routes4/content/_routes.json")).revoked.map((r: { umid: string }) => r.umid),
        ["urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-0a1b2c3d4e5e"],
      );
    },
  );
  it(
    "refuses a UMID that differs from a published one only in letter case, naming " + "that one, whatever the edit",
    async () => {
      const published = "urn:uuid:0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f";
      write("routes8/content/published.json", JSON.stringify(signed(manifestFor(published), key), null, 2));
      const shouted = published.toUpperCase();
      for (const args of [
        ["revoke", shouted],
        ["revoke", shouted, "--unpublished"],
        ["suspend", shouted],
        ["reinstate", shouted],
        ["redirect", shouted, "https://x.example/"],
      ]) {
        const result = await cli([...args, "--content", "routes8/content"]);
        assert.equal(result.status, 1, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
        const lines = result.stderr.trimEnd().split("\n");
        assert.equal(lines.length, 1, result.stderr);
        assert.ok(
          lines[0]!.startsWith("manifest-resolver: ") &&
            lines[0]!.includes(`${published} (routes8/content/published.json:3:10)`),
          `${args.join(" ")}: ${lines[0]}`,
        );
      }
      assert.equal(existsSync(join(scratch, "routes8/content/_routes.json")), false, "nothing was written");
    },
  );
  it(
    "finds a letter-case twin beyond ASCII (σ and ς have one capital, Σ), and quotes " + "a long UMID as an excerpt",
    async () => {
      write("routes9/content/greek.json", JSON.stringify(signed(manifestFor("urn:x:ασ"), key), null, 2));
      const twin = await cli(["redirect", "urn:x:ΑΣ", "https://x.example/", "--content", "routes9/content"]);
      assert.equal(twin.status, 1, twin.stdout + twin.stderr);
      assert.ok(twin.stderr.includes("urn:x:ασ (routes9/content/greek.json:3:10)"), twin.stderr);
      const long = `urn:x:${"y".repeat(100_000)}`;
      // Refused (no manifest publishes it), refused, nothing to do, done, refused (it is redirected now).
      const statuses = [1, 1, 0, 0, 1];
      for (const [i, args] of [
        ["revoke", long],
        ["suspend", long],
        ["reinstate", long],
        ["redirect", long, "https://x.example/"],
        ["revoke", long, "--unpublished"],
      ].entries()) {
        const result = await cli([...args, "--content", "routes9/content"]);
        assert.equal(result.status, statuses[i], `${args[0]}: ${result.stderr}`);
        assert.ok(
          result.stdout.length + result.stderr.length < 2_000,
          `${args[0]}: ${result.stdout.length + result.stderr.length} characters`,
        );
        assert.ok((result.stdout + result.stderr).includes(excerpt(long)), `${args[0]}: an excerpt of the UMID`);
      }
    },
  );
  it("concurrent edits wait for each other: every edit that reports success is in the file", async () => {
    const umids = Array.from({ length: 6 }, (_, i) => `urn:concurrent:${i}`);
    for (const umid of umids)
      write(`routes5/content/${umid.slice(-1)}.json`, JSON.stringify(signed(manifestFor(umid), key)));
    const results = await Promise.all(umids.map((umid) => cli(["revoke", umid, "--content", "routes5/content"])));
    for (const result of results) assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(
      JSON.parse(read("routes5/content/_routes.json"))
        .revoked.map((r: { umid: string }) => r.umid)
        .sort(),
      umids,
    );
    assert.equal(existsSync(join(scratch, "routes5/content/_routes.json.lock")), false, "the lock is released");
  });
  it("a held lock makes an edit wait, then fail saying who holds it; an abandoned one is taken over", async () => {
    write("routes6/content/a.json", JSON.stringify(signed(manifestFor("urn:locked"), key)));
    const lock = "routes6/content/_routes.json.lock";
    write(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-11-22T00:00:00.000Z" }));
    const waited = await cli(["revoke", "urn:locked", "--content", "routes6/content"], scratch, {
      UM_LOCK_WAIT_MS: "300",
    });
    assert.equal(waited.status, 1);
    // One line naming who holds the lock (process, host, since when), and the lock file to delete.
    assert.equal(waited.stderr.split("\n").length, 2, waited.stderr);
    assertLineNames(
      waited.stderr,
      "manifest-resolver: ",
      "routes6/content/_routes.json ",
      ` ${process.pid} `,
      hostname(),
      "2026-11-22T00:00:00.000Z",
      "routes6/content/_routes.json.lock",
    );
    assert.equal(existsSync(join(scratch, "routes6/content/_routes.json")), false);

    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => gone.on("exit", resolve));
    write(lock, JSON.stringify({ pid: gone.pid, host: hostname(), since: "2026-11-22T00:00:00.000Z" }));
    const taken = await cli(["revoke", "urn:locked", "--content", "routes6/content"], scratch, {
      UM_LOCK_WAIT_MS: "300",
    });
    assert.equal(taken.status, 0, taken.stderr);
    assert.equal(existsSync(join(scratch, lock)), false);
  });
  it("says so when the content folder does not exist, and a usage error cannot forge a line", async () => {
    const missing = await cli(["revoke", "urn:q", "--content", "no-such/content"]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr.split("\n").length, 2, missing.stderr);
    assertLineNames(missing.stderr, "manifest-resolver: ", "no-such/content", "--content");
    const forged = await cli(["x\n::error file=README.md::forged"]);
    assert.equal(forged.status, 2);
    assert.ok(!forged.stderr.split("\n").some((line) => line.startsWith("::")), forged.stderr);
  });
  it("refuses to edit an invalid _routes.json, and a URL that is not http(s)", async () => {
    write("routes3/content/_routes.json", '{"redirects": [{"umid": "urn:z"}]}');
    const invalid = await cli(["revoke", "urn:q", "--content", "routes3/content"]);
    assert.equal(invalid.status, 1);
    // Its problems, as check prints them, then a line naming the file.
    const [problem, refusal] = invalid.stderr.split("\n");
    assert.deepEqual(problemPlaces(problem!), [["routes3/content/_routes.json", "schema/required", 1, 16]]);
    assert.ok(problem!.includes('"location"') && problem!.endsWith(" at /redirects/0"), problem);
    assertLineNames(refusal!, "routes3/content/_routes.json");
    const url = await cli(["redirect", "urn:q", "ftp://q.example/", "--content", "routes3/content"]);
    assertUsageError(url, "'ftp://q.example/'", redirectLocationProblem("ftp://q.example/", "")!);
  });
  it("redirect takes only an absolute https URL with a host (http to loopback), no credentials, at most 8 KiB", async () => {
    mkdirSync(join(scratch, "routes7/content"), { recursive: true });
    // Each refused for the reason the redirect rule gives it (tests/unit/redirect-location.test.ts).
    for (const location of [
      "http://",
      // Issue 37: no client follows plain http to another host.
      "http://elsewhere.example/x",
      "https:///etc/passwd",
      `https://long.example/${"a".repeat(100_000)}`,
      "https://user:pass@host.example/m",
      "https:\\evil.example/",
      "https://host.example/a b",
      "https://host.example/\tx",
      "https:/one-slash.example/",
    ]) {
      const result = await cli(["redirect", "urn:q", location, "--content", "routes7/content"]);
      assertUsageError(result, redirectLocationProblem(location, "")!);
    }
    // The refused URL is quoted escaped: it cannot start a line of its own, such as a workflow command.
    const forged = await cli([
      "redirect",
      "urn:q",
      "https://q.example/\n::error file=README.md::forged",
      "--content",
      "routes7/content",
    ]);
    assert.equal(
      forged.stderr.split("\n")[0],
      "manifest-resolver: URL 'https://q.example/\\n::error file=README.md::forged' " +
        "must be printable ASCII, without spaces or control characters (percent-encode " +
        "anything else)",
    );
    assert.equal(existsSync(join(scratch, "routes7/content/_routes.json")), false);
    // A scheme in capitals is the same URL (RFC 3986 section 3.1): kept as written.
    assert.equal((await cli(["redirect", "urn:q", "HTTPS://Q.example/", "--content", "routes7/content"])).status, 0);
    assert.deepEqual(JSON.parse(read("routes7/content/_routes.json")).redirects, [
      { umid: "urn:q", location: "HTTPS://Q.example/" },
    ]);
  });
  it("redirect refuses a local or private address for a resolver that is not on one, as clients do", async () => {
    mkdirSync(join(scratch, "routes8/content"), { recursive: true });
    const remote = { UM_RESOLVER_URL: "https://resolver.example" };
    // Issue 37: every client asking a public resolver refuses to follow these (core/secure-url.ts).
    for (const location of ["https://10.0.0.1/x", "https://[::ffff:127.0.0.1]/x", "https://0.0.0.0/x"]) {
      const result = await cli(["redirect", "urn:q", location, "--content", "routes8/content"], scratch, remote);
      assertUsageError(result, `'${location}'`, redirectLocationProblem(location, remote.UM_RESOLVER_URL)!);
    }
    assert.equal(existsSync(join(scratch, "routes8/content/_routes.json")), false);
    // A trial on this machine: the resolver is on loopback too, and its clients follow it there.
    const trial = await cli(["redirect", "urn:q", "https://10.0.0.1/x", "--content", "routes8/content"], scratch, {
      UM_RESOLVER_URL: "http://localhost:8787",
    });
    assert.equal(trial.status, 0, trial.stderr);
    assert.deepEqual(JSON.parse(read("routes8/content/_routes.json")).redirects, [
      { umid: "urn:q", location: "https://10.0.0.1/x" },
    ]);
  });
});

describe("probe", () => {
  it("fails a server that does not keep the contract, saying how", async () => {
    const server = createServer((_req, res) => res.end("hello"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const result = await cli(["probe", `http://127.0.0.1:${port}`, "urn:x"]);
      assert.equal(result.status, 1);
      // Each failure names what was expected and what came instead.
      const health = probeOf(result.stdout, "GET /health");
      assert.deepEqual([health.passed, health.detail.endsWith('"hello"')], [false, true], health.detail);
      const extra = probeOf(result.stdout, "GET /a/b");
      assert.deepEqual([extra.passed, extra.detail.includes("400"), extra.detail.includes("200")], [false, true, true]);
      assert.equal(probeOf(result.stdout, "GET /urn%3Ax").passed, false);
      const status = probeOf(result.stdout, "GET /.well-known/manifest-resolver/status/urn%3Ax");
      assert.equal(status.passed, false);
      assertLineNames(status.detail, "X-UM-Resolver-Contract", '"manifest-resolver/v0.1"', "null");
      // The summary line, as probe prints it.
      assert.match(result.stdout, /: 12 checks, 12 failed\n$/);
    } finally {
      server.close();
    }
  });
  it("fails each redirect whose Location breaks the redirect rule", async () => {
    const common = {
      "X-UM-Resolver-Contract": "manifest-resolver/v0.1",
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract",
      "Cache-Control": "public, max-age=60",
    };
    // Over 8 KiB, yet under what an HTTP client reads of a header (16 KiB in Node).
    const long = `https://long.example/${"a".repeat(9_000)}`;
    const locations = [
      "http://",
      "https:///etc/passwd",
      long,
      "https://user:pass@host.example/m",
      "https:\\evil.example/",
      "https://host.example/a b",
      "https:/one-slash.example/",
      "/relative",
      // Issue 37: a redirect no client follows.
      "http://elsewhere.example/x",
    ];
    // GET /urn%3Amoved%3A{i} answers 307 to the i-th location; an accepted one last.
    const server = createServer((req, res) => {
      const i = Number(/%3Amoved%3A(\d+)$/.exec(req.url!)?.[1]);
      res.writeHead(307, { ...common, Location: locations[i] ?? "HTTPS://Good.example/m" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const umids = [...locations.keys(), locations.length].map((i) => `urn:moved:${i}`);
      const result = await cli(["probe", `http://127.0.0.1:${(server.address() as { port: number }).port}`, ...umids]);
      assert.equal(result.status, 1);
      const lines = result.stdout.split("\n").filter((line) => line.includes(" GET /urn%3Amoved"));
      // Each failure gives the reason the redirect rule gives (tests/unit/redirect-location.test.ts).
      assert.deepEqual(lines, [
        ...locations.map(
          (location, i) =>
            `FAIL  GET /urn%3Amoved%3A${i}: Location ${redirectLocationProblem(location, "")}: ${quoted(location)}`,
        ),
        `ok    GET /urn%3Amoved%3A${locations.length}: 307 to HTTPS://Good.example/m`,
      ]);
    } finally {
      server.close();
    }
  });
  it("fails a status document that disagrees with the resolve answer", async () => {
    const common = {
      "X-UM-Resolver-Contract": "manifest-resolver/v0.1",
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": "ETag, Cache-Control, Content-Type, Location, X-UM-Resolver-Contract",
    };
    // urn:gone answers 410, yet its status document says it is active.
    const server = createServer((req, res) => {
      if (req.url!.startsWith("/.well-known/manifest-resolver/status/")) {
        const body = JSON.stringify({
          manifestId: "urn:gone",
          status: "active",
          updatedAt: "2026-01-01T00:00:00Z",
          cursor: "0001767225600000",
          nextCheck: "PT10M",
        });
        res
          .writeHead(200, {
            ...common,
            "Content-Type": "application/json",
            "Cache-Control": "public, max-age=60",
            ETag: '"0001767225600000"',
          })
          .end(body);
      } else {
        res
          .writeHead(410, { ...common, "Content-Type": "application/json", "Cache-Control": "no-store" })
          .end(JSON.stringify({ error: "revoked", umid: "urn:gone" }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const result = await cli([
        "probe",
        `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        "urn:gone",
      ]);
      assert.equal(result.status, 1);
      const gone = probeOf(result.stdout, "GET /urn%3Agone");
      assert.deepEqual([gone.passed, gone.detail.split(" ")[0]], [true, "410"]);
      // The status document fails, naming the status it says and the answer it contradicts.
      const status = probeOf(result.stdout, "GET /.well-known/manifest-resolver/status/urn%3Agone");
      assert.equal(status.passed, false);
      assertLineNames(status.detail, "active", "410");
    } finally {
      server.close();
    }
  });
  it("stops at the first refused connection with one clear line, and rejects a bad URL as usage", async () => {
    const base = `http://127.0.0.1:${await freePort()}`;
    const result = await cli(["probe", base, "urn:a", "urn:b"]);
    assert.equal(result.status, 1);
    // The one check made, failed naming the URL and the system's code; then a line saying it stopped there.
    const [refused, stopped, ...rest] = result.stdout.split("\n");
    assert.deepEqual(
      probeLines(refused!).map((l) => [l.passed, l.check]),
      [[false, "GET /health"]],
    );
    assertLineNames(refused!, base, "ECONNREFUSED");
    assert.deepEqual(probeLines(stopped!), []);
    assertLineNames(stopped!, `${base}: `, " 1 ");
    assert.deepEqual(rest, [""]);
    assert.equal((await cli(["probe", "ftp://x"])).status, 2);
  });
});
