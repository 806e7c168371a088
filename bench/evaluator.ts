/**
 * The evaluator's throughput beside `check`'s, per core: the same sample of the corpus
 * (signatures verified by both), each side in a fresh worker thread, warm, sides
 * alternating, medians of the rounds. The evaluator awaits WebCrypto once per signature
 * (and its SHA-256 where a proof needs it); `check` uses Node's native Ed25519 synchronously.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { evaluate } from "../core/evaluate/index.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { checkManifestText } from "../scripts/check/manifest-check.ts";
import { NO_OPT_INS } from "../scripts/check/unsigned.ts";
import { typescriptWorker } from "../scripts/runtime/worker.ts";

const SAMPLE = 500;
const WARM_UP = 2000;
const ROUNDS = 5;
const PER_ROUND = 2000;

type Side = "evaluate" | "check";

/** Manifests per second on one core, for each side, medians of `runs` alternating runs. */
export async function evaluatorThroughput(content: string, runs: number): Promise<Record<Side, number>> {
  const results: Record<Side, number[]> = { evaluate: [], check: [] };
  for (let run = 0; run < runs; run++) {
    for (const side of (run % 2 === 0 ? ["evaluate", "check"] : ["check", "evaluate"]) as Side[]) {
      const worker = typescriptWorker(new URL(import.meta.url), { workerData: { content, side } });
      results[side].push(
        await new Promise<number>((resolve, reject) => worker.once("message", resolve).once("error", reject)),
      );
      await worker.terminate();
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return { evaluate: median(results.evaluate), check: median(results.check) };
}

async function perSecond(content: string, side: Side): Promise<number> {
  const folder = join(
    content,
    readdirSync(content)
      .filter((name) => !name.startsWith("_"))
      .sort()[0]!,
  );
  const texts = readdirSync(folder)
    .slice(0, SAMPLE)
    .map((name) => readFileSync(join(folder, name), "utf8"));
  const settings = settingsFromEnv({});
  const now = new Date();
  const checkContext = { settings, now, strict: false, pins: undefined, unsigned: NO_OPT_INS };
  const evaluateContext = { now: now.toISOString(), omitProcessedAt: true };
  const one: (i: number) => unknown =
    side === "check"
      ? (i) => checkManifestText("manifest.json", texts[i % texts.length]!, checkContext)
      : (i) => evaluate(texts[i % texts.length]!, evaluateContext, { limits: settings.limits });
  for (let i = 0; i < WARM_UP; i++) await one(i);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await one(i);
    rounds.push((PER_ROUND * 1000) / (performance.now() - started));
  }
  return rounds.sort((a, b) => a - b)[ROUNDS >> 1]!;
}

if (!isMainThread && workerData?.side !== undefined) {
  parentPort!.postMessage(await perSecond(workerData.content, workerData.side));
}
