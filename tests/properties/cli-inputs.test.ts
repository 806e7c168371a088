/**
 * What the CLI reads from its user under mutated input (issue 37, defect 10): `init`'s package.json, `evaluate
 * --context`, `--keys` and `--receipt-key`, `monitor --log-key` and `--state`, run as the CLI runs a command (its
 * dispatch, which makes a usage error exit 2). `init` writes its files (exit 0) or says what is in the way and writes
 * nothing (exit 1); a context or a file that cannot be used is a usage error (exit 2). None throws. The commands run
 * in this process, their output silenced: a spawned CLI per input would cost a second each.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { ContextError, resolveContext } from "../../core/evaluate/index.ts";
import { parseJson } from "../../core/json/strict-json.ts";
import { runCommand } from "../../scripts/cli/dispatch.ts";
import { cliCommand } from "../support/cli-command.ts";
import { settingsFromEnv } from "../../scripts/config.ts";
import { ed25519Signer } from "../../core/tlog/note-signature.ts";
import { utf8 } from "../../core/base64url.ts";
import { didKeyRef } from "../support/did.ts";
import { manifestFor, newKey, pinning, signed } from "../support/fixture-content.ts";
import { serveLogFiles } from "../support/log-server.ts";
import { DEEP_JSON, documentText, excerpt, holds, mutatedText, quietly } from "../support/properties.ts";
import { signedLog } from "../support/signed-log.ts";

const evaluateCommand = await cliCommand("evaluate");
const init = await cliCommand("init");
const monitor = await cliCommand("monitor");

const scratch = mkdtempSync(join(tmpdir(), "um-property-cli-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let projects = 0;
/** `init` in a new folder whose package.json is `text`. */
async function initWith(text: string): Promise<number> {
  const dir = join(scratch, `p${projects++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), text);
  try {
    return await quietly(() => runCommand(init, [dir]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PACKAGE = {
  name: "my-resolver",
  version: "1.0.0",
  private: true,
  scripts: { test: "node --test" },
  devDependencies: { typescript: "^5.0.0" },
};

describe("properties: what the CLI reads from its user", () => {
  it("init writes its files or nothing, whatever package.json holds", async () => {
    assert.equal(await initWith(JSON.stringify(PACKAGE)), 0);
    await holds(
      "init's package.json",
      fc.asyncProperty(documentText(PACKAGE), async (text) => {
        assert.ok([0, 1].includes(await initWith(text)), excerpt(text));
      }),
      60,
    );
  });

  it("init refuses a package.json nested thousands deep", async () => {
    for (const text of DEEP_JSON) assert.equal(await initWith(`{"config":${text}}`), 1);
  });

  it("evaluate --context runs with a context it can use, and is a usage error otherwise", async () => {
    const file = join(scratch, "manifest.json");
    writeFileSync(file, JSON.stringify(signed(manifestFor("urn:property:context"), newKey())));
    const context = { now: "2026-06-01T00:00:00Z", intendedScope: ["read"], requireActiveStatus: false };
    const evaluateWith = (text: string) => quietly(() => runCommand(evaluateCommand, [file, "--context", text]));
    assert.equal(await evaluateWith(JSON.stringify(context)), 0);
    // Usable: JSON as the CLI reads user input (strictly: no lone surrogate, duplicate member or rounded number), and
    // a context resolveContext takes.
    const usable = (text: string) => {
      const parsed = parseJson(text, settingsFromEnv().limits);
      if (!parsed.ok) return false;
      try {
        resolveContext(parsed.value);
        return true;
      } catch (error) {
        if (error instanceof ContextError) return false;
        throw error;
      }
    };
    await holds(
      "--context",
      fc.asyncProperty(documentText(context), async (text) => {
        const status = await evaluateWith(text);
        assert.ok(usable(text) ? status === 0 || status === 1 : status === 2, `exit ${status}: ${excerpt(text)}`);
      }),
      150,
    );
  });

  it("evaluate --keys and --receipt-key read their files, or are a usage error", async () => {
    const key = newKey();
    const file = join(scratch, "pinned.json");
    writeFileSync(file, JSON.stringify(signed(manifestFor("urn:property:keys"), key)));
    const keysFile = join(scratch, "keys.json");
    const pemFile = join(scratch, "receipt.pem");
    const receiptKey = newKey();
    const pem = receiptKey.export({ format: "pem", type: "pkcs8" }) as string;
    const evaluateWith = (keys: string, receiptPem: string) => {
      writeFileSync(keysFile, keys);
      writeFileSync(pemFile, receiptPem);
      const args = [file, "--now", "2026-06-01T00:00:00Z", "--keys", keysFile, "--receipt-key", pemFile];
      return quietly(() => runCommand(evaluateCommand, [...args, "--receipt-key-ref", didKeyRef(receiptKey)]));
    };
    assert.equal(await evaluateWith(JSON.stringify(pinning(key)), pem), 0);
    const isJson = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    await holds(
      "--keys and --receipt-key",
      fc.asyncProperty(
        fc.oneof(
          documentText(pinning(key)).map((keys) => [keys, pem] as const),
          mutatedText(pem).map((receiptKey) => [JSON.stringify(pinning(key)), receiptKey] as const),
        ),
        async ([keys, receiptPem]) => {
          const status = await evaluateWith(keys, receiptPem);
          assert.ok(isJson(keys) ? [0, 1, 2].includes(status) : status === 2, `exit ${status}: ${excerpt(keys)}`);
        },
      ),
      100,
    );
  });

  it("monitor --log-key and --state read what they are given, or are a usage error", async () => {
    const signer = (await ed25519Signer({ name: "fixture.example/log", seed: new Uint8Array(32).fill(7) }))!;
    const entry = utf8('{"state":"revoked","umid":"urn:property:monitored"}');
    const log = await signedLog([entry], ["urn:property:monitored"], signer);
    const server = await serveLogFiles(log.files);
    after(() => server.stop());
    const stateFile = join(scratch, "state");
    const checkpoint = Buffer.from(log.files.get("checkpoint")!).toString();
    const monitorWith = (verifier: string, state: string) => {
      writeFileSync(stateFile, state);
      return quietly(() => runCommand(monitor, [server.url, "--log-key", verifier, "--state", stateFile, "--json"]));
    };
    assert.equal(await monitorWith(log.verifier, checkpoint), 0);
    await holds(
      "--log-key and --state",
      fc.asyncProperty(
        fc.oneof(
          mutatedText(log.verifier).map((verifier) => [verifier, checkpoint] as const),
          mutatedText(checkpoint).map((state) => [log.verifier, state] as const),
        ),
        async ([verifier, state]) => {
          const status = await monitorWith(verifier, state);
          assert.ok([0, 1, 2].includes(status), `exit ${status}: ${excerpt(verifier)} ${excerpt(state)}`);
        },
      ),
      100,
    );
  });
});
