/**
 * Issue 41 end to end, with our own commands only: two `witness serve` processes witness a publisher's log, `log`
 * collects both cosignatures under content/_log/policy's 2-of-2 quorum, `build` and `serve` publish it, and a relying
 * party with the same policy accepts: online (`resolve --log-policy`) and offline, from the answer's Link to its
 * proof (`evaluate --proof --log-policy`). A third witness fed another history of the log refuses it, and `log`
 * fails with nothing published.
 */
import assert from "node:assert/strict";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { decodeBase64url } from "../core/base64url.ts";
import { parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../core/tlog/note-keys.ts";
import { umidPath } from "../core/umid-path.ts";
import { freePort } from "./support/http.ts";
import { type LogScratch, LOG_ORIGIN, logScratch } from "./support/log-content.ts";
import { CLI } from "./support/paths.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { startWitnessServe, type WitnessProcess } from "./support/witness-process.ts";

const UMID = "urn:witnessed:end-to-end";

let scratch: LogScratch;
let content: string;
let witnesses: { process: WitnessProcess; vkey: string }[];
let resolver: Started | undefined;
let policyFile: string;

/** A witness's key as PEM, its cosigner key for `name`. */
function witnessKey(dir: string, name: string): { pem: string; vkey: string } {
  const { privateKey } = generateKeyPairSync("ed25519");
  const pem = join(dir, `${name.replace(/\W/g, "-")}.pem`);
  writeFileSync(pem, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600 });
  const publicKey = decodeBase64url(createPrivateKey(readFileSync(pem)).export({ format: "jwk" }).x!)!;
  return { pem, vkey: formatVerifierKey(name, publicKey, COSIGNATURE_TYPE) };
}

async function startWitness(name: string, logsText: string): Promise<{ process: WitnessProcess; vkey: string }> {
  const dir = join(scratch.dir, name.replace(/\W/g, "-"));
  mkdirSync(dir, { recursive: true });
  const key = witnessKey(dir, name);
  writeFileSync(join(dir, "logs"), logsText);
  const process = await startWitnessServe({ key: key.pem, logs: join(dir, "logs"), name, state: join(dir, "state") });
  return { process, vkey: key.vkey };
}

before(async () => {
  scratch = logScratch("um-witness-e2e-");
  content = scratch.content("site");
  scratch.publish(content, "a.json", UMID);
  // The log's key is the publisher's: the witnesses are configured with its verifier key before the first run.
  const seed = createPrivateKey(readFileSync(scratch.logKey)).export({ format: "jwk" });
  const logVkey = formatVerifierKey(LOG_ORIGIN, decodeBase64url(seed.x!)!);
  witnesses = [
    await startWitness("witness-one.example/w", `log ${logVkey}\n`),
    await startWitness("witness-two.example/w", `log ${logVkey}\n`),
  ];
  const witnessLines = witnesses.map((w, i) => `witness W${i + 1} ${w.vkey} ${w.process.url}`);
  const policy = [...witnessLines, "group both all W1 W2", "quorum both", ""].join("\n");
  mkdirSync(join(content, "_log"), { recursive: true });
  writeFileSync(join(content, "_log", "policy"), policy);
  // The relying party's policy: the same witnesses and quorum, and the log's key.
  policyFile = join(scratch.dir, "client-policy");
  writeFileSync(policyFile, `log ${logVkey}\n${policy}`);
});

after(async () => {
  await resolver?.stop();
  for (const witness of witnesses ?? []) await witness.process.stop();
  rmSync(scratch.dir, { recursive: true, force: true });
});

test("two witnesses cosign the log, and a client with the 2-of-2 policy accepts, online and offline", async () => {
  const logged = await scratch.cli("log", "--key", scratch.logKey, "--content", content);
  assert.equal(logged.status, 0, logged.stdout + logged.stderr);
  const checkpoint = parseNote(readFileSync(join(content, "_log", "checkpoint")))!;
  const names = checkpoint.signatures.map((signature) => signature.keyName);
  assert.deepEqual(names, [LOG_ORIGIN, "witness-one.example/w", "witness-two.example/w"]);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dist = join(scratch.dir, "dist");
  const built = await scratch.cli("build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`);
  assert.equal(built.status, 0, built.stdout + built.stderr);
  resolver = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", dist, "--port", String(port)]);

  const resolved = await scratch.cli("resolve", base, UMID, "--log-policy", policyFile, "--offline", "--json");
  assert.equal(resolved.status, 0, resolved.stdout + resolved.stderr);
  const receipt = JSON.parse(resolved.stdout) as { outcome: string; warnings: { rule?: string }[] };
  assert.notEqual(receipt.outcome, "rejected");
  assert.deepEqual(
    receipt.warnings.map((w) => w.rule).filter((rule) => rule?.startsWith("log/")),
    [],
  );

  // Offline: the answer links its proof; the body and the proof, saved, are checked with no network.
  const answer = await fetch(`${base}${umidPath(UMID)}`);
  assert.equal(answer.status, 200);
  const link = /^<([^>]+)>; rel="https:\/\/c2sp\.org\/tlog-proof"$/.exec(answer.headers.get("link") ?? "");
  assert.ok(link, `a Link to the proof: ${answer.headers.get("link")}`);
  const proof = await fetch(new URL(link[1]!, `${base}${umidPath(UMID)}`));
  assert.equal(proof.status, 200);
  writeFileSync(join(scratch.dir, "body.json"), Buffer.from(await answer.arrayBuffer()));
  writeFileSync(join(scratch.dir, "body.tlog-proof"), await proof.text());
  const evaluated = await scratch.cli(
    ...["evaluate", join(scratch.dir, "body.json"), "--offline", "--json"],
    ...["--proof", join(scratch.dir, "body.tlog-proof"), "--log-policy", policyFile],
  );
  assert.equal(evaluated.status, 0, evaluated.stderr);
  assert.match(evaluated.stderr, /witnessed by 2 of 2/);
});

test("a witness that saw another history refuses it (409, then 422), so log fails and nothing is published", async () => {
  // A witness that was shown another log under the same key (a split view) holds a tree this one does not extend.
  const other = logScratch("um-witness-e2e-other-");
  try {
    const otherContent = other.content("site");
    other.publish(otherContent, "b.json", "urn:other:b");
    other.publish(otherContent, "c.json", "urn:other:c");
    // The same log key and origin, another history.
    writeFileSync(other.logKey, readFileSync(scratch.logKey));
    assert.equal((await other.cli("log", "--key", other.logKey, "--content", otherContent)).status, 0);
    const seed = createPrivateKey(readFileSync(scratch.logKey)).export({ format: "jwk" });
    const forked = await startWitness(
      "witness-three.example/w",
      `log ${formatVerifierKey(LOG_ORIGIN, decodeBase64url(seed.x!)!)}\n`,
    );
    witnesses.push(forked);
    const otherPolicy = `witness W3 ${forked.vkey} ${forked.process.url}\nquorum W3\n`;
    writeFileSync(join(otherContent, "_log", "policy"), otherPolicy);
    assert.equal((await other.cli("log", "--key", other.logKey, "--content", otherContent)).status, 0);

    // Now the publisher's log, a change later, asks that witness too.
    scratch.publish(content, "a.json", UMID, { name: "changed" });
    writeFileSync(
      join(content, "_log", "policy"),
      // A name is a group member once in a policy: the group of two gives way to the group of three.
      `${readFileSync(join(content, "_log", "policy"), "utf8").replace("group both all W1 W2\nquorum both\n", "")}` +
        `witness W3 ${forked.vkey} ${forked.process.url}\ngroup all3 all W1 W2 W3\nquorum all3\n`,
    );
    const logged = await scratch.cli("log", "--key", scratch.logKey, "--content", content);
    assert.equal(logged.status, 1, logged.stdout + logged.stderr);
    assert.match(logged.stdout + logged.stderr, /log\/unwitnessed/);
    // It answered 409 (its size is not the one asked from), then 422 to the proof from its size: another root.
    assert.match(logged.stdout + logged.stderr, /log\/unwitnessed: witness W3 \([^)]+\) refused: 422/);
    const out = join(scratch.dir, "dist-refused");
    const built = await scratch.cli("build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`);
    assert.equal(built.status, 1);
    assert.match(built.stdout + built.stderr, /log\/unwitnessed/);
    assert.equal(existsSync(out), false, "nothing is published");
  } finally {
    rmSync(other.dir, { recursive: true, force: true });
  }
});
