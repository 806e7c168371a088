/**
 * How long `manifest-resolver dev` takes to serve a saved change (issue 39: within 2 s at 1,000 manifests): a
 * project of the N-manifest corpus under `dev`, then one manifest rewritten (re-issued, re-signed) at a time, timed
 * from the write until the resolver answers its new body.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { corpus, rewriteManifests, umidOf } from "./corpus.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The time each of `runs` changes took to be served, in ms; `work` holds the project meanwhile. */
export async function devChangeServed(bin: string, work: string, n: number, runs: number): Promise<number[]> {
  const source = await corpus(n, () => {});
  const dir = mkdtempSync(join(work, "dev-"));
  writeFileSync(join(dir, "package.json"), "{}\n");
  cpSync(source, join(dir, "content"), { recursive: true });
  mkdirSync(join(dir, "home"));
  const dev = spawn(process.execPath, [bin, "dev", "--port", "0", "--ui-port", "0"], {
    cwd: dir,
    env: { ...process.env, HOME: join(dir, "home"), UM_RESOLVER_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  dev.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    while (!output.includes("watching")) {
      if (dev.exitCode !== null) throw new Error(`dev exited:\n${output}`);
      await pause(50);
    }
    const resolver = /^serving .* at (\S+)\/$/m.exec(output)![1]!;
    const url = `${resolver}/${encodeURIComponent(umidOf(0))}`;
    const issuedAt = async () => ((await (await fetch(url)).json()) as { issuedAt: string }).issuedAt;
    const times: number[] = [];
    // Revisions of this run's own (a re-issue a few hours later each), not one an earlier run of the corpus made.
    const first = 1 + Math.floor(Math.random() * 10_000);
    for (let run = 1; run <= runs; run++) {
      const before = await issuedAt();
      const started = performance.now();
      rewriteManifests(join(dir, "content"), n, 1, first + run);
      while ((await issuedAt()) === before) await pause(10);
      times.push(performance.now() - started);
      // The folder quiet again, as between a person's saves.
      await pause(300);
    }
    return times;
  } finally {
    dev.kill("SIGINT");
    await new Promise((resolve) => dev.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
