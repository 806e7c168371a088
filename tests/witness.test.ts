/**
 * `manifest-resolver witness serve` as an operator runs it (the bundled CLI, `npm run build:cli` first): the C2SP
 * tlog-witness suite (support/witness-protocol.ts) against it, then what only a process with a state folder shows:
 * state kept across a restart and a SIGKILL, one winner among concurrent requests, no rollback under any interleaving,
 * keep-alive, the folder's lock, a damaged record, and its log lines.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { COSIGNATURE_TYPE, formatVerifierKey, parseVerifierKey } from "../core/tlog/note-keys.ts";
import { formatAddCheckpoint, parseSizeBody } from "../core/tlog/witness-protocol.ts";
import { originHash } from "../core/witness/witness-store.ts";
import { startWitnessServe, type WitnessProcess } from "./support/witness-process.ts";
import { holdStateFolder } from "../scripts/witness/state-folder.ts";
import { runCli } from "./support/processes.ts";
import {
  addCheckpoint,
  cosignedSize,
  origin,
  TestTree,
  witnessKeys,
  witnessProtocolSuite,
} from "./support/witness-protocol.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-witness-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const keys = await witnessKeys();
const keyFile = join(scratch, "witness.pem");
const logsFile = join(scratch, "logs.txt");
writeFileSync(keyFile, keys.witnessPem, { mode: 0o600 });
writeFileSync(logsFile, `# the logs of the tests\n${keys.logsText}`);
let states = 0;
const newState = () => join(scratch, `state-${states++}`);

/** `witness serve` on a free port with `state` (and the suite's key, or `key`), once it says where it listens. */
function startWitness(state: string, key = keyFile): Promise<WitnessProcess> {
  return startWitnessServe({ key, logs: logsFile, name: keys.name, state });
}

describe("witness serve, over HTTP", () => {
  witnessProtocolSuite(async () => {
    const witness = await startWitness(newState());
    return { url: witness.url, close: async () => void (await witness.stop()) };
  }, keys);
});

test("it prints its URL, name and key, a JSON line per request, and stops on SIGTERM, unlocked", async () => {
  const state = newState();
  const witness = await startWitness(state);
  const [start] = witness.lines;
  assert.equal(start!.name, keys.name);
  // The cosigner key to publish: a tlog-policy witness line's, and the key the suite verifies cosignatures with.
  assert.deepEqual(parseVerifierKey(String(start!.key), COSIGNATURE_TYPE), keys.witness);
  assert.equal(start!.logs, 40);
  assert.ok(existsSync(join(state, "witness.lock")));
  const tree = new TestTree(5);
  const logged = await addCheckpoint(witness.url, 0, [], await tree.checkpoint([keys.logs[20]!], 5));
  assert.equal(logged.status, 200);
  await fetch(`${witness.url}/health`);
  assert.equal(await witness.stop(), 0);
  assert.ok(!existsSync(join(state, "witness.lock")));
  const requests = witness.lines.filter((line) => "status" in line);
  assert.deepEqual(
    requests.map(({ method, path, status, origin, size }) => ({ method, path, status, origin, size })),
    [
      { method: "POST", path: "/add-checkpoint", status: 200, origin: origin(20), size: 5 },
      { method: "GET", path: "/health", status: 200, origin: undefined, size: undefined },
    ],
  );
  for (const line of requests) {
    assert.ok(!Number.isNaN(Date.parse(String(line.time))));
    assert.equal(typeof line.ms, "number");
  }
  // Its record: the checkpoint, cosigned, under the origin's hash.
  const record = JSON.parse(readFileSync(join(state, `${await originHash(origin(20))}.json`), "utf8"));
  assert.equal(record.size, 5);
});

test("a stop answers the request in flight first", async () => {
  const state = newState();
  const witness = await startWitness(state);
  const body = Buffer.from(
    formatAddCheckpoint({ oldSize: 0, proof: [], checkpoint: await new TestTree(3).checkpoint([keys.logs[31]!], 3) }),
  );
  const { hostname, port } = new URL(witness.url);
  const socket = connect(Number(port), hostname);
  let answer = "";
  socket.on("data", (chunk: Buffer) => (answer += chunk));
  const closed = new Promise((resolve) => socket.once("close", resolve));
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(`POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nContent-Length: ${body.length}\r\n\r\n`);
  socket.write(body.subarray(0, 10));
  // Answered on another connection after the first bytes were sent: the witness has the request in hand.
  await (await fetch(`${witness.url}/health`)).text();
  const exited = witness.stop();
  socket.write(body.subarray(10));
  // The answer, and then the witness ends the connection: its last request.
  await closed;
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.match(answer, /\r\nconnection: close\r\n/i);
  assert.equal(await exited, 0);
  assert.ok(!existsSync(join(state, "witness.lock")));
});

test("its state outlives a restart and a SIGKILL: it goes on from the last checkpoint answered", async () => {
  const state = newState();
  const tree = new TestTree(400);
  const log = keys.logs[21]!;
  let witness = await startWitness(state);
  let answered = 0;
  let inFlight = 0;
  // One request at a time, the witness killed after a random number of them, while the next is in flight.
  const killAfter = 5 + Math.floor(Math.random() * 20);
  for (let round = 0; round <= killAfter; round++) {
    inFlight = answered + 1 + Math.floor(Math.random() * 5);
    const proof = await tree.proof(answered, inFlight);
    const sent = addCheckpoint(witness.url, answered, proof, await tree.checkpoint([log], inFlight));
    if (round === killAfter) {
      const dropped = sent.catch(() => undefined);
      await witness.kill();
      await dropped;
      break;
    }
    const reply = await sent;
    assert.equal(reply.status, 200, reply.body);
    answered = inFlight;
  }
  witness = await startWitness(state);
  try {
    const kept = await cosignedSize(witness.url, log.name);
    // The one in flight may have been written before the kill: never less than the last answered.
    assert.ok(kept === answered || kept === inFlight, `kept ${kept}, last answered ${answered}`);
    const stale = await addCheckpoint(witness.url, 0, [], await tree.checkpoint([log], 400));
    assert.equal(parseSizeBody(stale.body), kept);
    const on = await addCheckpoint(witness.url, kept, await tree.proof(kept, 400), await tree.checkpoint([log], 400));
    assert.equal(on.status, 200);
  } finally {
    await witness.stop();
  }
  witness = await startWitness(state);
  try {
    assert.equal(await cosignedSize(witness.url, log.name), 400);
  } finally {
    await witness.stop();
  }
  assert.deepEqual(
    readdirSync(state).filter((name) => name.endsWith(".tmp")),
    [],
  );
});

test("50 concurrent requests from one old size: exactly one is cosigned, the rest are told its size", async () => {
  const witness = await startWitness(newState());
  try {
    const tree = new TestTree(80);
    const log = keys.logs[22]!;
    assert.equal((await addCheckpoint(witness.url, 0, [], await tree.checkpoint([log], 10))).status, 200);
    const sizes = Array.from({ length: 50 }, (_, i) => 11 + i);
    // Every body made first, then all sent at once: they reach the witness together.
    const bodies = await Promise.all(
      sizes.map(async (size) => ({
        proof: await tree.proof(10, size),
        checkpoint: await tree.checkpoint([log], size),
      })),
    );
    const replies = await Promise.all(
      bodies.map((body) => addCheckpoint(witness.url, 10, body.proof, body.checkpoint)),
    );
    const won = sizes.filter((_, i) => replies[i]!.status === 200);
    assert.equal(won.length, 1, `one 200, not ${won.length}`);
    for (const reply of replies.filter((r) => r.status !== 200)) {
      assert.equal(reply.status, 409);
      assert.equal(parseSizeBody(reply.body), won[0]);
    }
    assert.equal(await cosignedSize(witness.url, log.name), won[0]);
  } finally {
    await witness.stop();
  }
});

test("no interleaving of concurrent requests rolls a log back (the spec's race), over several logs", async () => {
  const witness = await startWitness(newState());
  const logs = [23, 24, 25, 26].map((i) => ({ log: keys.logs[i]!, tree: new TestTree(2000) }));
  const cosigned = new Map<string, number[]>(logs.map(({ log }) => [log.name, []]));
  let running = true;
  try {
    // A monitor reading each log's checkpoint again and again: the size it sees never goes down.
    const monitor = (async () => {
      const seen = new Map<string, number>();
      while (running)
        for (const { log } of logs) {
          const size = await cosignedSize(witness.url, log.name);
          assert.ok(size >= (seen.get(log.name) ?? 0), `${log.name} went back to ${size}`);
          seen.set(log.name, size);
        }
    })();
    // Per log, five clients each believing a size, racing to extend it; a 409 tells them the size to go on from.
    const client = async ({ log, tree }: (typeof logs)[number]) => {
      let known = 0;
      for (let step = 0; step < 12; step++) {
        const next = known + 1 + Math.floor(Math.random() * 8);
        const reply = await addCheckpoint(
          witness.url,
          known,
          await tree.proof(known, next),
          await tree.checkpoint([log], next),
        );
        if (reply.status === 200) {
          cosigned.get(log.name)!.push(next);
          known = next;
        } else {
          assert.equal(reply.status, 409, reply.body);
          known = parseSizeBody(reply.body)!;
        }
      }
    };
    await Promise.all(logs.flatMap((entry) => Array.from({ length: 5 }, () => client(entry))));
    running = false;
    await monitor;
    for (const { log } of logs) {
      const sizes = cosigned.get(log.name)!;
      // Each cosigned size extends the one before it: none is cosigned twice, and the last stands.
      assert.equal(new Set(sizes).size, sizes.length, `${log.name} cosigned a size twice: ${sizes}`);
      assert.equal(await cosignedSize(witness.url, log.name), Math.max(...sizes));
    }
  } finally {
    running = false;
    await witness.stop();
  }
});

test("two requests go over one kept-alive connection", async () => {
  const witness = await startWitness(newState());
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = request(`${witness.url}/health`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
    assert.deepEqual(await get(), { status: 200, reused: false });
    assert.deepEqual(await get(), { status: 200, reused: true });
  } finally {
    agent.destroy();
    await witness.stop();
  }
});

test("a body cut off, or streamed past the limit with no length, ends that request alone", async () => {
  const witness = await startWitness(newState());
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { hostname, port } = new URL(witness.url);
    const cut = connect(Number(port), hostname);
    await new Promise((resolve) => cut.once("connect", resolve));
    cut.write("POST /add-checkpoint HTTP/1.1\r\nHost: w\r\nContent-Length: 1000\r\n\r\nold 0\n");
    cut.destroy();
    const chunked = await new Promise<{ status: number }>((resolve, reject) => {
      const req = request(`${witness.url}/add-checkpoint`, { method: "POST", agent }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode! }));
      });
      req.on("error", reject);
      // 20 chunks of 4 KiB, past the 64 KiB the witness reads, and no Content-Length.
      for (let i = 0; i < 20; i++) req.write("x".repeat(4096));
      req.end();
    });
    assert.equal(chunked.status, 413);
    const health = await fetch(`${witness.url}/health`);
    assert.equal(health.status, 200);
    await health.text();
  } finally {
    agent.destroy();
    await witness.stop();
  }
  // Logged as the client's fault, not the witness's.
  assert.deepEqual(
    witness.lines
      .filter((line) => line.path === "/add-checkpoint")
      .map((line) => line.status)
      .sort(),
    [400, 413],
  );
});

test("one witness per state folder: a second fails, naming the lock; a dead process's lock is taken over", async () => {
  const state = newState();
  const first = await startWitness(state);
  try {
    const second = await runCli([...serveArgs(state)], scratch);
    assert.equal(second.status, 1);
    assert.match(second.stderr, /^manifest-resolver: .*witness\.lock/);
    assert.match(second.stderr, new RegExp(`process ${first.child.pid}\\b`));
  } finally {
    await first.stop();
  }
  // A lock naming a process that is gone (killed with -9): the next witness takes it over.
  const killed = await startWitness(state);
  await killed.kill();
  assert.ok(existsSync(join(state, "witness.lock")));
  const next = await startWitness(state);
  assert.equal(await next.stop(), 0);
});

test("a lock that names this very process (its id reused after a crash) is taken over, not waited for", async () => {
  const state = newState();
  mkdirSync(state, { recursive: true });
  const lock = join(state, "witness.lock");
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date(0).toISOString() }));
  const release = await holdStateFolder(state);
  assert.equal(JSON.parse(readFileSync(lock, "utf8")).since === new Date(0).toISOString(), false);
  release();
  assert.equal(existsSync(lock), false);
});

test("a damaged record answers 500, logged, and never a cosignature as if from size 0", async () => {
  const state = newState();
  const log = keys.logs[27]!;
  const tree = new TestTree(9);
  let witness = await startWitness(state);
  assert.equal((await addCheckpoint(witness.url, 0, [], await tree.checkpoint([log], 4))).status, 200);
  await witness.stop();
  const record = join(state, `${await originHash(log.name)}.json`);
  const damages = {
    "cut short": readFileSync(record, "utf8").slice(0, 40),
    "a size its checkpoint does not have": JSON.stringify({ ...JSON.parse(readFileSync(record, "utf8")), size: 3 }),
    empty: "",
  };
  for (const [i, [what, text]] of Object.entries(damages).entries()) {
    writeFileSync(record, text);
    witness = await startWitness(state);
    try {
      const fresh = await addCheckpoint(witness.url, 0, [], await tree.checkpoint([log], 9));
      assert.equal(fresh.status, 500, what);
      const on = await addCheckpoint(witness.url, 4, await tree.proof(4, 9), await tree.checkpoint([log], 9));
      assert.equal(on.status, 500, what);
      assert.equal((await fetch(`${witness.url}/${await originHash(log.name)}/checkpoint`)).status, 500, what);
      // Other logs are served.
      const other = await addCheckpoint(witness.url, 0, [], await tree.checkpoint([keys.logs[28 + i]!], 2));
      assert.equal(other.status, 200);
    } finally {
      await witness.stop();
    }
    const failures = witness.lines.filter((line) => line.status === 500);
    assert.equal(failures.length, 3, what);
    for (const line of failures) assert.ok(String(line.reason).includes(record), String(line.reason));
    assert.equal(readFileSync(record, "utf8"), text, `${what}: left as it was`);
  }
});

test("keygen --role witness writes the key alone, and witness serve prints its cosigner key", async () => {
  const folder = mkdtempSync(join(scratch, "keygen-"));
  const made = await runCli(["keygen", "--role", "witness", "--file", join(folder, "keys", "witness.pem")], folder);
  assert.equal(made.status, 0, made.stderr);
  assert.deepEqual(readdirSync(folder, { recursive: true }).sort(), ["keys", join("keys", "witness.pem")]);
  const spki = /public key \(SPKI, base64\): (\S+)/.exec(made.stdout)?.[1];
  const witness = await startWitness(newState(), join(folder, "keys", "witness.pem"));
  await witness.stop();
  const publicKey = Buffer.from(spki!, "base64").subarray(-32);
  assert.equal(witness.lines[0]!.key, formatVerifierKey(keys.name, publicKey, COSIGNATURE_TYPE));
});

test("a list of logs that breaks the format is a usage error naming FILE:line:column", async () => {
  const bad = join(scratch, "bad-logs.txt");
  writeFileSync(bad, `${keys.logsText}witness w1 ${keys.name}+00000000+AA==\n`);
  const run = await runCli(["witness", "serve", "--key", keyFile, "--logs", bad, "--state", newState()], scratch);
  assert.equal(run.status, 2);
  assert.match(run.stderr, new RegExp(`--logs ${bad.replace(/[.]/g, "\\.")}:42:1: `));
  const wrongAction = await runCli(["witness", "start", "--key", keyFile, "--logs", logsFile], scratch);
  assert.equal(wrongAction.status, 2);
});

function serveArgs(state: string): string[] {
  return ["witness", "serve", "--key", keyFile, "--logs", logsFile, "--port", "0", "--state", state];
}
