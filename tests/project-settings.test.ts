/**
 * The project's settings file, `manifest-resolver.json` (scripts/config.ts, scripts/check/project-config.ts): every
 * command reads it, the environment overrides it and a flag overrides both; `check` refuses a secret in it; and
 * `keygen --role` writes each key's public half where its role needs it, so that a publisher's path has no hand edit.
 */
import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { assertLineNames, assertUsageError, checkedFiles, problemPlaces } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-settings-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A new project from `init`, its keys folder in the scratch folder (never the user's home). */
async function project(name: string, ...initArgs: string[]): Promise<{ dir: string; keys: string; run: Run }> {
  const dir = join(scratch, name);
  const home = join(scratch, `${name}-home`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}\n");
  // The environment a developer's machine may have set is not the project's: the file alone speaks.
  const env = { HOME: home, UM_RESOLVER_URL: undefined, UM_KEYS_DIR: undefined, UM_STATUS_LIST_KEY: undefined };
  const run: Run = (args, more = {}) => runCliInProcess(args, dir, { ...env, ...more });
  const made = await run(["init", ...initArgs]);
  assert.equal(made.status, 0, made.stderr);
  return { dir, keys: join(home, ".manifest-keys", name), run };
}

type Run = (args: string[], env?: Record<string, string | undefined>) => ReturnType<typeof runCliInProcess>;

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const spkiOf = (pem: string) =>
  createPublicKey(createPrivateKey(pem)).export({ format: "der", type: "spki" }).toString("base64");

describe("keygen by role, from init to a signed, checked manifest with no hand edit", () => {
  it("pins a signing key in _keys.json and makes its keyRef the one sign uses", async () => {
    const { dir, keys, run } = await project("signing", "--resolver-url", "http://localhost:8787");
    assert.deepEqual(json(join(dir, "manifest-resolver.json")), {
      resolverUrl: "http://localhost:8787",
      keysDir: "~/.manifest-keys/signing",
    });
    const made = await run(["keygen"]);
    assert.equal(made.status, 0, made.stderr);
    const spki = spkiOf(readFileSync(join(keys, "signing.pem"), "utf8"));
    const keyRef = "did:web:localhost%3A8787#key-1";
    assert.deepEqual(json(join(dir, "content/_keys.json")), { [keyRef]: spki });
    assert.equal(json(join(dir, "manifest-resolver.json")).signingKeyRef, keyRef);

    assert.equal((await run(["new", "--file", "content/first.jsonld"])).status, 0);
    const signing = await run(["sign", "content"]);
    assert.equal(signing.status, 0, signing.stdout + signing.stderr);
    const signature = json(join(dir, "content/first.jsonld")).signature;
    assert.equal(signature.keyRef, keyRef);
    assert.equal(signature.publicKeySpkiB64, spki);
    // The resolver URL of the file gives the statusRef, as UM_RESOLVER_URL did.
    assert.ok(signature.statusRef.startsWith("http://localhost:8787/.well-known/manifest-resolver/status/"));
    const checked = await run(["check", "--offline", "--json"]);
    assert.equal(checked.status, 0, checked.stdout);
    assert.ok(checkedFiles(checked.stdout).some((f) => f.file === "manifest-resolver.json" && f.ok));
  });

  it("refuses a keyRef pinned already before it makes a key, and writes nothing", async () => {
    const { dir, keys, run } = await project("twice", "--resolver-url", "https://twice.example");
    assert.equal((await run(["keygen"])).status, 0);
    const pins = readFileSync(join(dir, "content/_keys.json"), "utf8");
    const again = await run(["keygen", "--file", join(keys, "second.pem")]);
    assert.equal(again.status, 1, again.stderr);
    assert.ok(!existsSync(join(keys, "second.pem")), "no key made for nothing");
    assert.equal(readFileSync(join(dir, "content/_keys.json"), "utf8"), pins);
  });

  it("says where the key went when its pin cannot be written after it: another command holds _keys.json", async () => {
    const { dir, keys, run } = await project("held", "--resolver-url", "https://held.example");
    const holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    writeFileSync(join(dir, "content/_keys.json.lock"), JSON.stringify(holder));
    const made = await run(["keygen"], { UM_LOCK_WAIT_MS: "50" });
    assert.equal(made.status, 1, made.stderr);
    assert.ok(made.stdout.includes(join(keys, "signing.pem")), made.stdout);
    assertLineNames(made.stderr, "content/_keys.json.lock");
    assert.deepEqual(json(join(dir, "content/_keys.json")), {});
  });

  it("writes a log key's verifier and the log's origin; log then runs with no flag", async () => {
    const { dir, keys, run } = await project("logged", "--resolver-url", "https://logged.example");
    assert.equal((await run(["keygen"])).status, 0);
    assert.equal((await run(["new", "--file", "content/one.jsonld"])).status, 0);
    assert.equal((await run(["sign", "content"])).status, 0);
    const made = await run(["keygen", "--role", "log"]);
    assert.equal(made.status, 0, made.stderr);
    const origin = "logged.example/.well-known/manifest-resolver/log";
    assert.ok(readFileSync(join(dir, "content/_log/verifier"), "utf8").startsWith(`${origin}+`));
    assert.equal(json(join(dir, "manifest-resolver.json")).logOrigin, origin);
    assert.ok(existsSync(join(keys, "log.pem")));
    // The verifier names the log from now on: the gate refuses content the log does not record, until log runs.
    assert.equal((await run(["check", "--offline"])).status, 1);
    const logged = await run(["log"]);
    assert.equal(logged.status, 0, logged.stdout + logged.stderr);
    assert.ok(readFileSync(join(dir, "content/_log/checkpoint"), "utf8").startsWith(`${origin}\n`));
    const checked = await run(["check", "--offline"]);
    assert.equal(checked.status, 0, checked.stdout);
    // A log keeps its key: a second one is refused, and none is made.
    const again = await run(["keygen", "--role", "log", "--file", join(keys, "log2.pem")]);
    assert.equal(again.status, 1);
    assert.ok(!existsSync(join(keys, "log2.pem")));
  });

  it("names the status lists' key in the settings, and build signs with it and no other", async () => {
    const { dir, keys, run } = await project("listed", "--resolver-url", "http://127.0.0.1:8787");
    assert.equal((await run(["keygen"])).status, 0);
    const made = await run(["keygen", "--role", "status-list"]);
    assert.equal(made.status, 0, made.stderr);
    const settings = json(join(dir, "manifest-resolver.json"));
    assert.equal(settings.statusLists, true);
    assert.match(settings.statusListKey, /^did:key:z6Mk/);
    assert.equal((await run(["new", "--file", "content/one.jsonld"])).status, 0);
    assert.equal((await run(["sign", "content"])).status, 0);
    // statusLists on: the statusRef is an entry of a list.
    assert.match(json(join(dir, "content/one.jsonld")).signature.statusRef, /#\d+$/);
    const built = await run(["build"]);
    assert.equal(built.status, 0, built.stdout + built.stderr);
    assert.ok(!built.stderr.includes("without a proof"), built.stderr);
    const lists = readdirSync(join(dir, "dist"), { recursive: true }).map(String);
    assert.ok(lists.length > 0);
    // Another key in CI's secret is refused: relying parties that pinned the project's would reject its lists.
    const other = join(scratch, "other-status-list.pem");
    assert.equal((await run(["keygen", "--role", "status-list", "--file", other])).status, 0);
    writeFileSync(join(dir, "manifest-resolver.json"), `${JSON.stringify(settings)}\n`);
    const wrong = await run(["build"], { UM_STATUS_LIST_KEY: other });
    assert.equal(wrong.status, 1, wrong.stderr);
    assert.ok(wrong.stderr.includes(settings.statusListKey), wrong.stderr);
    assert.ok(existsSync(join(keys, "status-list.pem")));
  });
});

describe("manifest-resolver.json, read by every command", () => {
  it("is overridden by the environment, and the environment by a flag", async () => {
    const { dir, run } = await project("order", "--resolver-url", "https://file.example");
    assert.equal((await run(["keygen"])).status, 0);
    const statusRef = async (env: Record<string, string>, ...flags: string[]) => {
      rmSync(join(dir, "content/one.jsonld"), { force: true });
      assert.equal((await run(["new", "--file", "content/one.jsonld"])).status, 0);
      const signed = await run(["sign", "content", ...flags], env);
      assert.equal(signed.status, 0, signed.stdout + signed.stderr);
      return new URL(json(join(dir, "content/one.jsonld")).signature.statusRef).origin;
    };
    assert.equal(await statusRef({}), "https://file.example");
    assert.equal(await statusRef({ UM_RESOLVER_URL: "https://env.example" }), "https://env.example");
    assert.equal(
      await statusRef({ UM_RESOLVER_URL: "https://env.example" }, "--status-base", "https://flag.example"),
      "https://flag.example",
    );
  });

  it("refuses a private key in it: check reports config/secret, every other command exits 2", async () => {
    const { dir, run } = await project("secret");
    const pem = (await import("node:crypto")).generateKeyPairSync("ed25519").privateKey.export({
      format: "pem",
      type: "pkcs8",
    }) as string;
    writeFileSync(join(dir, "manifest-resolver.json"), `{\n  "keysDir": ${JSON.stringify(pem)}\n}\n`);
    const checked = await run(["check", "--offline"]);
    assert.equal(checked.status, 1);
    assert.deepEqual(problemPlaces(checked.stdout), [["manifest-resolver.json", "config/secret", 2, 15]]);
    assertUsageError(await run(["build"]), "manifest-resolver.json:2:15", "config/secret");
    // As base64 of its DER, the way `openssl pkey -outform DER | base64` prints it, too.
    const der = createPrivateKey(pem).export({ format: "der", type: "pkcs8" }).toString("base64");
    writeFileSync(join(dir, "manifest-resolver.json"), `{ "logOrigin": "${der}" }\n`);
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "config/secret", 1, 17],
    ]);
  });

  it("refuses a private key in the other shapes it is pasted in: base64 broken into lines, a JWK's d", async () => {
    const { dir, run } = await project("secret-shapes");
    const key = (await import("node:crypto")).generateKeyPairSync("ed25519").privateKey;
    const der = key.export({ format: "der", type: "pkcs8" }).toString("base64");
    const wrapped = der.match(/.{1,20}/g)!.join("\\n");
    writeFileSync(join(dir, "manifest-resolver.json"), `{ "logOrigin": "${wrapped}" }\n`);
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "config/secret", 1, 17],
    ]);
    const jwk = JSON.stringify(key.export({ format: "jwk" }));
    writeFileSync(join(dir, "manifest-resolver.json"), `{ "signingKeyRef": ${JSON.stringify(jwk)} }\n`);
    assert.equal(problemPlaces((await run(["check", "--offline"])).stdout)[0]?.[1], "config/secret");
    writeFileSync(join(dir, "manifest-resolver.json"), `{ "signingKey": ${jwk} }\n`);
    assert.equal(problemPlaces((await run(["check", "--offline"])).stdout)[0]?.[1], "config/secret");
  });

  it("refuses a keys folder inside the repository, a value no command can use, and a member it does not know", async () => {
    const { dir, run } = await project("values");
    const write = (text: string) => writeFileSync(join(dir, "manifest-resolver.json"), text);
    write('{\n  "keysDir": "keys"\n}\n');
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "config/keys-in-repository", 2, 14],
    ]);
    assertUsageError(await run(["keygen"]), "config/keys-in-repository");
    assert.ok(!existsSync(join(dir, "keys")), "no key written into the repository");
    write('{\n  "resolverUrl": "http://resolver.example"\n}\n');
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "config/value", 2, 18],
    ]);
    write('{\n  "logOrigin": "a log"\n}\n');
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "config/value", 2, 16],
    ]);
    write('{\n  "resolverURL": "https://resolver.example"\n}\n');
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "schema/additionalProperties", 2, 18],
    ]);
    write('{ "statusLists": "yes" }\n');
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout), [
      ["manifest-resolver.json", "schema/type", 1, 18],
    ]);
    write('{ "keysDir": "/a", "keysDir": "/b" }\n');
    assert.equal(problemPlaces((await run(["check", "--offline"])).stdout)[0]?.[1], "json/duplicate-key");
  });
  it("holds UM_KEYS_DIR to the keys folder's rule: keygen writes no key into the repository", async () => {
    const { dir, run } = await project("env-keys");
    const made = await run(["keygen"], { UM_KEYS_DIR: join(dir, "keys") });
    assertUsageError(made, "UM_KEYS_DIR", "config/keys-in-repository");
    assert.ok(!existsSync(join(dir, "keys")), "no key written into the repository");
  });

  it("writes no key into the repository outside content/ either, when --file names a place there", async () => {
    const { dir, run } = await project("file-in-repo");
    const made = await run(["keygen", "--file", "secrets/signing.key"]);
    assert.equal(made.status, 1, made.stderr);
    assertLineNames(made.stderr, "manifest-resolver: ", "config/keys-in-repository", "--file");
    assert.ok(!existsSync(join(dir, "secrets")), "no key written into the repository");
  });

  it("takes a variable set to nothing as unset, as a CI's unset secret gives it", async () => {
    const { run } = await project("empty-env", "--resolver-url", "https://empty.example");
    const checked = await run(["check", "--offline"], { UM_LOG_ORIGIN: "" });
    assert.equal(checked.status, 0, checked.stderr);
  });
});

describe("status on by default", () => {
  it("warns, with the command that fixes it, of a manifest that has no statusRef, in check and in suspend", async () => {
    const { dir, run } = await project("unreachable", "--resolver-url", "https://status.example");
    assert.equal((await run(["keygen"])).status, 0);
    assert.equal((await run(["new", "--file", "content/kept.jsonld"])).status, 0);
    assert.equal((await run(["new", "--file", "content/bare.jsonld"])).status, 0);
    assert.equal((await run(["sign", "content"])).status, 0);
    // statusRef is outside the signing input: removed, the signature still holds, and nothing tells of a status.
    const bare = json(join(dir, "content/bare.jsonld"));
    delete bare.signature.statusRef;
    writeFileSync(join(dir, "content/bare.jsonld"), `${JSON.stringify(bare, null, 2)}\n`);
    const checked = await run(["check", "--offline"]);
    assert.equal(checked.status, 0, checked.stdout);
    const warned = problemPlaces(checked.stdout, "warning");
    assert.deepEqual(
      warned.map(([file, rule]) => [file, rule]),
      [["content/bare.jsonld", "signature/status-ref-missing"]],
    );
    assert.match(checked.stdout, /run manifest-resolver sign content\/bare\.jsonld/);
    const kept = await run(["suspend", json(join(dir, "content/kept.jsonld"))["@id"]]);
    assert.equal(kept.status, 0, kept.stderr);
    assert.equal(kept.stderr, "");
    const suspended = await run(["suspend", bare["@id"]]);
    assert.equal(suspended.status, 0, suspended.stderr);
    assert.deepEqual(problemPlaces(suspended.stderr, "warning"), [
      ["content/bare.jsonld", "signature/status-ref-missing"],
    ]);
    // Without a resolver URL there is no statusRef to give: sign says nothing of one, and check warns of none.
    writeFileSync(join(dir, "manifest-resolver.json"), JSON.stringify({ keysDir: "~/.manifest-keys/unreachable" }));
    assert.deepEqual(problemPlaces((await run(["check", "--offline"])).stdout, "warning"), []);
  });
});
