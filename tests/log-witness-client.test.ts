/**
 * A client's log policy (issue 41, part 3): `resolve --log-policy`, the library's `logPolicy` and `monitor
 * --log-policy` take a checkpoint only when the policy's quorum of witnesses cosigned it, freshly. A logged resolver
 * is built and served by our own commands, behind a proxy that serves its checkpoint cosigned here by two witness
 * keys, as the test needs: both, one, an old one, a forged one. A 2-of-2 policy accepts the first and refuses the
 * others by their rules; --log-key alone still accepts, with its warning that a split view goes undetected.
 */
import assert from "node:assert/strict";
import { createPublicKey } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { resolve, trustMemory } from "../core/client/index.ts";
import { cosign } from "../core/tlog/cosignature.ts";
import { formatNote, parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../core/tlog/note-signature.ts";
import { LOG_PREFIX } from "../core/umid-path.ts";
import { KEY_ONLY_WARNING } from "../scripts/commands/log-policy-option.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { publishedLogFiles } from "./support/log-server.ts";
import { type StartedProxy, startProxy } from "./support/proxy.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-log-witness-client-"));
const key = newKey();
const ORIGIN = "resolver.example/.well-known/manifest-resolver/log";
const NOW = "2026-11-01T00:00:00Z";
const NOW_SECONDS = Date.parse(NOW) / 1000;
const HOUR = 3600;
const DAY = 86_400;
const A = "urn:witnessed:a";

let resolver: Started;
let proxy: StartedProxy;
let base: string;
let verifier: string;
/** The checkpoint the build serves: signed by the log, cosigned by nobody. */
let served: string;
/** What the proxy serves as the log's checkpoint; undefined: the build's. */
let checkpoint: string | undefined;
let witnesses: [NoteSigner, NoteSigner];
/** The 2-of-2 policy of the log and both witnesses. */
let policyText: string;
let policyFile: string;

const cosignerKey = (signer: NoteSigner) => formatVerifierKey(signer.name, signer.publicKey, COSIGNATURE_TYPE);

/** The log's checkpoint with each witness's cosignature at its time, in seconds. */
async function cosigned(...by: [NoteSigner, number][]): Promise<string> {
  const note = parseNote(served)!;
  const cosignatures = await Promise.all(by.map(([signer, time]) => cosign(note.text, signer, time)));
  return formatNote({ text: note.text, signatures: [...note.signatures, ...cosignatures] });
}

function policyOf(...lines: string[]): string {
  const file = join(scratch, `policy-${lines.join("").length}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

before(async () => {
  const proxyPort = await freePort();
  base = `http://127.0.0.1:${proxyPort}`;
  const content = join(scratch, "content");
  mkdirSync(content, { recursive: true });
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
  writeFileSync(join(content, "a.json"), JSON.stringify(signed(manifestFor(A), key)));
  const logKeyFile = join(scratch, "log.pem");
  writeFileSync(logKeyFile, newKey().export({ format: "pem", type: "pkcs8" }));
  const logged = await runCliInProcess(["log", "--key", logKeyFile, "--origin", ORIGIN, "--content", content], scratch);
  assert.equal(logged.status, 0, logged.stdout + logged.stderr);
  const files = await publishedLogFiles(join(content, "_log"));
  served = Buffer.from(files.get("checkpoint")!).toString("utf8");
  const dist = join(scratch, "dist");
  const built = await runCliInProcess(
    ["build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`],
    scratch,
    { UM_RESOLVER_URL: base },
  );
  assert.equal(built.status, 0, built.stdout + built.stderr);
  const servePort = await freePort();
  resolver = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", String(servePort)]);
  proxy = await startProxy(
    proxyPort,
    () => `http://127.0.0.1:${servePort}`,
    () => undefined,
    (path, answer) => {
      if (path === `${LOG_PREFIX}/checkpoint` && checkpoint !== undefined) answer.body = Buffer.from(checkpoint);
    },
  );
  writeFileSync(join(scratch, "keys.json"), JSON.stringify(pinning(key)));

  verifier = readFileSync(join(content, "_log", "verifier"), "utf8").trim();
  const seed = () => crypto.getRandomValues(new Uint8Array(32));
  witnesses = [
    (await ed25519Signer({ name: "witness-one.example", seed: seed() }, COSIGNATURE_TYPE))!,
    (await ed25519Signer({ name: "witness-two.example", seed: seed() }, COSIGNATURE_TYPE))!,
  ];
  policyText = [
    `log ${verifier}`,
    `witness alpha ${cosignerKey(witnesses[0])}`,
    `witness beta ${cosignerKey(witnesses[1])}`,
    "group both all alpha beta",
    "quorum both",
    "",
  ].join("\n");
  policyFile = join(scratch, "policy");
  writeFileSync(policyFile, policyText);
});

after(async () => {
  await resolver?.stop();
  await proxy?.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface ResolvedCli {
  status: number | null;
  stderr: string;
  outcome: string;
  rules: (string | undefined)[];
  messages: string[];
}

async function resolveCli(...more: string[]): Promise<ResolvedCli> {
  const run = await runCliInProcess(
    ["resolve", base, A, "--now", NOW, "--offline", "--keys", join(scratch, "keys.json"), "--json", ...more],
    scratch,
  );
  assert.notEqual(run.stdout, "", run.stderr);
  const receipt = JSON.parse(run.stdout) as { outcome: string; warnings: { rule?: string; message: string }[] };
  return {
    status: run.status,
    stderr: run.stderr,
    outcome: receipt.outcome,
    rules: receipt.warnings.map((w) => w.rule),
    messages: receipt.warnings.map((w) => w.message),
  };
}

const verdict = (run: ResolvedCli) => [run.status, run.outcome, run.rules];
const fresh = NOW_SECONDS - HOUR;

describe("resolve --log-policy: a 2-of-2 quorum of witnesses", () => {
  it("accepts a checkpoint both witnesses cosigned, without the key-only warning", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], fresh - HOUR]);
    const run = await resolveCli("--log-policy", policyFile);
    assert.deepEqual(verdict(run), [0, "accepted", []], run.stderr);
    assert.ok(!run.stderr.includes(KEY_ONLY_WARNING));
  });

  it("refuses a checkpoint one witness cosigned: log/unwitnessed, naming the other", async () => {
    checkpoint = await cosigned([witnesses[0], fresh]);
    const run = await resolveCli("--log-policy", policyFile);
    assert.deepEqual(verdict(run), [1, "rejected", ["log/unwitnessed"]]);
    assert.ok(run.messages[0]!.includes("beta") && !run.messages[0]!.includes("alpha"), run.messages[0]);
    checkpoint = undefined;
    assert.deepEqual(verdict(await resolveCli("--log-policy", policyFile)), [1, "rejected", ["log/unwitnessed"]]);
  });

  it("refuses a quorum made only with an old cosignature, and takes it under a larger bound", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], NOW_SECONDS - 40 * DAY]);
    const run = await resolveCli("--log-policy", policyFile);
    assert.deepEqual(verdict(run), [1, "rejected", ["log/stale-cosignature"]]);
    assert.ok(run.messages[0]!.includes("beta at 2026-09-22T00:00:00.000Z"), run.messages[0]);
    const larger = await resolveCli("--log-policy", policyFile, "--max-cosignature-age", "41d");
    assert.deepEqual(verdict(larger), [0, "accepted", []], larger.stderr);
    const smaller = await resolveCli("--log-policy", policyFile, "--max-cosignature-age", "30m");
    assert.deepEqual(verdict(smaller), [1, "rejected", ["log/stale-cosignature"]]);
  });

  it("refuses a cosignature dated in the future past the clocks' skew", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], NOW_SECONDS + DAY]);
    assert.deepEqual(verdict(await resolveCli("--log-policy", policyFile)), [1, "rejected", ["log/stale-cosignature"]]);
  });

  it("refuses a cosignature with a byte flipped: log/unproven", async () => {
    const good = await cosigned([witnesses[0], fresh], [witnesses[1], fresh]);
    const note = parseNote(good)!;
    const last = note.signatures.at(-1)!;
    const flipped = Uint8Array.from(last.signature);
    flipped[20]! ^= 1;
    checkpoint = formatNote({
      text: note.text,
      signatures: [...note.signatures.slice(0, -1), { ...last, signature: flipped }],
    });
    assert.deepEqual(verdict(await resolveCli("--log-policy", policyFile)), [1, "rejected", ["log/unproven"]]);
  });

  it("refuses a log whose key the policy does not list: log/unproven", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], fresh]);
    const raw = Buffer.from(createPublicKey(newKey()).export({ format: "jwk" }).x!, "base64url");
    const other = policyText.replace(verifier, formatVerifierKey(ORIGIN, raw));
    const run = await resolveCli("--log-policy", policyOf(other));
    assert.deepEqual(verdict(run), [1, "rejected", ["log/unproven"]]);
  });

  it("takes the policy's log whose origin the checkpoint names, among several", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], fresh]);
    const raw = Buffer.from(createPublicKey(newKey()).export({ format: "jwk" }).x!, "base64url");
    const several = `log ${formatVerifierKey("other.example/log", raw)}\n${policyText}`;
    assert.deepEqual(verdict(await resolveCli("--log-policy", policyOf(several))), [0, "accepted", []]);
  });

  it("a policy of the quorum none accepts a checkpoint no witness cosigned, and warns as --log-key does", async () => {
    checkpoint = undefined;
    const run = await resolveCli("--log-policy", policyOf(`log ${verifier}`, "quorum none"));
    assert.deepEqual(verdict(run), [0, "accepted", []], run.stderr);
    assert.equal(run.stderr.split("\n").filter((line) => line.startsWith("manifest-resolver: warning:")).length, 1);
  });

  it("a 1-of-2 group accepts one fresh cosignature", async () => {
    checkpoint = await cosigned([witnesses[1], fresh]);
    const anyOne = policyText.replace("group both all", "group both any");
    assert.deepEqual(verdict(await resolveCli("--log-policy", policyOf(anyOne))), [0, "accepted", []]);
  });
});

describe("resolve --log-key alone: a quorum of none", () => {
  it("accepts a checkpoint no witness cosigned, and warns that a split view is not detected", async () => {
    checkpoint = undefined;
    const run = await resolveCli("--log-key", verifier);
    assert.deepEqual(verdict(run), [0, "accepted", []], run.stderr);
    assert.ok(run.stderr.includes(KEY_ONLY_WARNING), run.stderr);
  });
});

describe("resolve --log-policy, usage", () => {
  const usage = async (...args: string[]) => {
    const run = await runCliInProcess(["resolve", base, A, ...args], scratch);
    assert.equal(run.status, 2, run.stderr);
    return run.stderr;
  };

  it("a policy that breaks the syntax is a usage error at FILE:line:column", async () => {
    const file = policyOf(`log ${verifier}`, "witness alpha nothing");
    assert.ok((await usage("--log-policy", file)).includes(`${file}:2:15:`));
  });

  it("a policy without a log, both --log-key and --log-policy, or a bound without a policy: usage errors", async () => {
    await usage("--log-policy", policyOf("quorum none"));
    await usage("--log-policy", policyFile, "--log-key", verifier);
    await usage("--log-key", verifier, "--max-cosignature-age", "1d");
    await usage("--log-policy", policyFile, "--max-cosignature-age", "1w");
    await usage("--log-policy", join(scratch, "no-such-policy"));
    const notUtf8 = join(scratch, "latin1-policy");
    writeFileSync(
      notUtf8,
      Buffer.concat([Buffer.from(`log ${verifier}\n# caf`), Buffer.from([0xe9]), Buffer.from("\nquorum none\n")]),
    );
    await usage("--log-policy", notUtf8);
  });
});

describe("the library's logPolicy", () => {
  const options = () => ({ offline: true, keys: pinning(key), context: { now: NOW } });

  it("accepts under a quorum, counts the witnesses, and remembers the checkpoint by the log's key", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], fresh]);
    const memory = trustMemory();
    const resolved = await resolve(base, A, { ...options(), logPolicy: policyText, memory });
    assert.ok("receipt" in resolved);
    assert.deepEqual([resolved.receipt.outcome, resolved.logWitnesses], ["accepted", { cosigned: 2, of: 2 }]);
    assert.equal((await memory.recall(`checkpoint ${verifier}`))?.kind, "checkpoint");
  });

  it("refuses one short, naming the witness missing", async () => {
    checkpoint = await cosigned([witnesses[1], fresh]);
    const resolved = await resolve(base, A, { ...options(), logPolicy: policyText });
    assert.ok("receipt" in resolved);
    assert.deepEqual(
      [resolved.receipt.warnings.map((w) => w.rule), resolved.logWitnesses],
      [["log/unwitnessed"], { cosigned: 1, of: 2, missing: ["alpha"] }],
    );
  });

  it("takes maxCosignatureAge in seconds", async () => {
    checkpoint = await cosigned([witnesses[0], fresh], [witnesses[1], fresh]);
    const strict = await resolve(base, A, { ...options(), logPolicy: policyText, maxCosignatureAge: 60 });
    assert.ok("receipt" in strict);
    assert.deepEqual(
      strict.receipt.warnings.map((w) => w.rule),
      ["log/stale-cosignature"],
    );
  });

  it("a logKey alone reports no witness count", async () => {
    checkpoint = undefined;
    const resolved = await resolve(base, A, { ...options(), logKey: verifier });
    assert.ok("receipt" in resolved);
    assert.deepEqual([resolved.receipt.outcome, resolved.logWitnesses], ["accepted", undefined]);
  });

  it("throws TypeError, before any request, for a policy that cannot be used", async () => {
    let requests = 0;
    const counting = (url: string, init: RequestInit) => {
      requests += 1;
      return fetch(url, init);
    };
    for (const given of [
      { logPolicy: "quorum none\n" },
      { logPolicy: "log nothing\nquorum none\n" },
      { logPolicy: policyText, logKey: verifier },
      { logPolicy: policyText, maxCosignatureAge: -1 },
    ])
      await assert.rejects(resolve(base, A, { ...given, fetch: counting }), TypeError);
    assert.equal(requests, 0);
  });
});

describe("monitor --log-policy", () => {
  const monitor = async (...more: string[]) => {
    const run = await runCliInProcess(["monitor", base, "--json", ...more], scratch);
    return { status: run.status, stderr: run.stderr, json: JSON.parse(run.stdout || "null") };
  };
  // The monitor reads the checkpoint at the real clock.
  const now = () => Math.floor(Date.now() / 1000);

  it("accepts a checkpoint its quorum cosigned, and says how many did", async () => {
    checkpoint = await cosigned([witnesses[0], now() - 60], [witnesses[1], now() - 60]);
    const run = await monitor("--log-policy", policyFile);
    assert.deepEqual([run.status, run.json?.ok, run.json?.witnessed], [0, true, { cosigned: 2, of: 2 }], run.stderr);
  });

  it("refuses one short of its quorum: log/unwitnessed; and an old quorum: log/stale-cosignature", async () => {
    checkpoint = await cosigned([witnesses[0], now() - 60]);
    const short = await monitor("--log-policy", policyFile);
    assert.deepEqual([short.status, short.json?.ok, short.json?.rule], [1, false, "log/unwitnessed"]);
    checkpoint = await cosigned([witnesses[0], now() - 60], [witnesses[1], now() - 2 * DAY]);
    const old = await monitor("--log-policy", policyFile, "--max-cosignature-age", "1d");
    assert.deepEqual([old.status, old.json?.rule], [1, "log/stale-cosignature"]);
  });

  it("--log-key alone still verifies, with its warning; neither is a usage error", async () => {
    checkpoint = undefined;
    const run = await monitor("--log-key", verifier);
    assert.deepEqual([run.status, run.json?.ok, run.json?.witnessed], [0, true, undefined], run.stderr);
    assert.ok(run.stderr.includes(KEY_ONLY_WARNING));
    assert.equal((await runCliInProcess(["monitor", base], scratch)).status, 2);
  });
});
