/**
 * The witness's targets (issue 41), each on a state folder on disk and one on a tmpfs:
 * - add-checkpoint for a log of 1,000,000 entries, 20 new, under 50 ms, excluding the
 *   network: the web handler called in this process over the file store that `witness
 *   serve` uses (each answer written durably first);
 * - 500 requests a second across 100 logs: `witness serve` itself, over keep-alive
 *   connections, one chain of checkpoints per log, all logs at once; beside it, in the same
 *   run, node:http answering from memory (bench/minimal-node-server.mjs) to the same client.
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../core/tlog/note-signature.ts";
import { witnessHandler } from "../core/witness/witness-handler.ts";
import { FileWitnessStore } from "../scripts/witness/file-store.ts";
import { startPrintingUrl } from "../tests/support/processes.ts";
import { checkpointChain, packedTree } from "./witness-chains.ts";

export interface StateFolder {
  /** "disk" or "tmpfs". */
  label: string;
  dir: string;
}

const BIG_LOG = 1_000_000;
const NEW_ENTRIES = 20;
const LOGS = 100;

const randomSeed = () => crypto.getRandomValues(new Uint8Array(32));

/** Median milliseconds of `runs` add-checkpoint answers of 20 new entries to a 1,000,000-entry log, per folder. */
export async function addCheckpointLatency(
  folders: readonly StateFolder[],
  runs: number,
): Promise<Map<string, number>> {
  const log = (await ed25519Signer({ name: "bench.example/big-log", seed: randomSeed() }))!;
  const cosigner = (await ed25519Signer({ name: "bench.example/witness", seed: randomSeed() }, COSIGNATURE_TYPE))!;
  const sizes = Array.from({ length: runs + 1 }, (_, i) => BIG_LOG + i * NEW_ENTRIES);
  const tree = packedTree(sizes.at(-1)!, (i) => `{"entry":${i}}`);
  const bodies = await checkpointChain(log, tree, sizes);
  const medians = new Map<string, number>();
  for (const { label, dir } of folders) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const handle = witnessHandler({
      witness: { signer: cosigner, logs: new Map([[log.name, [log]]]), clock: () => Date.now() / 1000 },
      store: new FileWitnessStore(dir),
    });
    const post = async (body: string) => {
      const response = await handle(new Request("http://witness/add-checkpoint", { method: "POST", body }));
      if (response.status !== 200) throw new Error(`add-checkpoint: ${response.status} ${await response.text()}`);
      await response.text();
    };
    await post(bodies[0]!);
    const times: number[] = [];
    for (const body of bodies.slice(1)) {
      const started = performance.now();
      await post(body);
      times.push(performance.now() - started);
    }
    medians.set(label, median(times));
    rmSync(dir, { recursive: true, force: true });
  }
  return medians;
}

/** Requests a second `witness serve` answers across 100 logs, per folder; and node:http's from memory, beside it. */
export async function witnessThroughput(
  folders: readonly StateFolder[],
  seconds: number,
  work: string,
): Promise<{ ours: Map<string, number>; floor: number }> {
  const { privateKey } = generateKeyPairSync("ed25519");
  const keyFile = join(work, "witness.pem");
  mkdirSync(work, { recursive: true });
  writeFileSync(keyFile, privateKey.export({ format: "pem", type: "pkcs8" }));
  const logs: NoteSigner[] = [];
  for (let i = 0; i < LOGS; i++)
    logs.push((await ed25519Signer({ name: `bench.example/log-${i}`, seed: randomSeed() }))!);
  const logsFile = join(work, "witness-logs");
  writeFileSync(logsFile, logs.map((log) => `log ${formatVerifierKey(log.name, log.publicKey)}\n`).join(""));
  // Enough checkpoints for a chain per log to outlast `seconds` at several thousand a second.
  const chainLength = Math.max(50, seconds * 60);
  const chains = await Promise.all(
    logs.map((log) => {
      const tree = packedTree(chainLength, (i) => `${log.name} ${i}`);
      return checkpointChain(
        log,
        tree,
        Array.from({ length: chainLength }, (_, i) => i + 1),
      );
    }),
  );
  const ours = new Map<string, number>();
  let floor = 0;
  for (const { label, dir } of folders) {
    rmSync(dir, { recursive: true, force: true });
    const witness = await serveWitness(keyFile, logsFile, dir);
    try {
      ours.set(label, await chainsPerSecond(witness.url, chains, seconds));
    } finally {
      await witness.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const fixture = join(work, "witness-floor.json");
    const body = Buffer.from(`\u2014 bench.example/witness ${"A".repeat(100)}\n`).toString("base64");
    writeFileSync(
      fixture,
      JSON.stringify({ ok: { body, headers: { "content-type": "text/plain" } }, notModified: {} }),
    );
    const minimal = await startPrintingUrl(process.execPath, [
      join(import.meta.dirname, "minimal-node-server.mjs"),
      fixture,
    ]);
    try {
      floor = Math.max(floor, await chainsPerSecond(minimal.url, chains, seconds));
    } finally {
      await minimal.stop();
    }
  }
  return { ours, floor };
}

/** `witness serve` on a free port, once its first line says where it listens; its other lines are read and dropped. */
async function serveWitness(keyFile: string, logsFile: string, state: string) {
  const bin = join(import.meta.dirname, "..", "bin", "manifest-resolver.js");
  const args = ["witness", "serve", "--key", keyFile, "--logs", logsFile, "--name", "bench.example/witness"];
  const child = spawn(process.execPath, [bin, ...args, "--port", "0", "--state", state], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let first = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      if (first.includes("\n")) return;
      first += chunk;
      const line = first.split("\n")[0]!;
      if (first.includes("\n")) resolve(JSON.parse(line).listening);
    });
    void exited.then(() => reject(new Error("witness serve exited before it listened")));
  });
  const stop = () => {
    child.kill("SIGTERM");
    return exited;
  };
  return { url, stop };
}

/** Every chain posted in order, all chains at once, for `seconds`: the 200s answered a second. */
async function chainsPerSecond(url: string, chains: readonly string[][], seconds: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: chains.length });
  const { hostname, port } = new URL(url);
  const post = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ hostname, port, path: "/add-checkpoint", method: "POST", agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const answered = await Promise.all(
    chains.map(async (chain) => {
      let ok = 0;
      for (const body of chain) {
        if (performance.now() >= deadline) break;
        const status = await post(body);
        if (status !== 200) throw new Error(`add-checkpoint answered ${status}`);
        ok++;
      }
      return ok;
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return answered.reduce((a, b) => a + b, 0) / elapsed;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
