/**
 * Where one manifest's time goes: each stage of the check (and the build's extra hashing),
 * timed alone over a sample of the corpus, warm. Each stage runs in a fresh worker
 * thread, so that no stage's compiled code depends on what ran before it (timed in one
 * isolate, canonicalization swung between 20 and 55 µs with the order of the stages).
 * The benchmark prints these beside its ratios, so that a ratio comes with its costs.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { utf8 } from "../core/base64url.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { parseCanonical } from "../core/crypto/canonical-parse.ts";
import { canonicalMembers, joinMembers } from "../core/crypto/jcs.ts";
import { verifyProfileA } from "../scripts/crypto/profile-a.ts";
import { parseJson, type JsonParseResult } from "../core/json/strict-json.ts";
import { crossFieldProblems } from "../core/validate/cross-field.ts";
import { structureProblems } from "../core/validate/manifest-structure.ts";
import { typescriptWorker } from "../scripts/runtime/worker.ts";
import { PUBLISHED_LEGACY_CHECKS } from "../scripts/validate/legacy-schemas.ts";
import { schemaValidators } from "../scripts/validate/schema-validator.ts";

const SAMPLE = 200;
/** Runs before timing: enough for the optimizing compiler to have compiled the stage. */
const WARM_UP = 2000;
/** Timed runs, in rounds: the median round is reported. */
const ROUNDS = 7;
const PER_ROUND = 1000;

/** A sample of the corpus, prepared once per stage's worker. */
interface Sample {
  files: string[];
  texts: string[];
  settings: ReturnType<typeof settingsFromEnv>;
  limits: ReturnType<typeof settingsFromEnv>["limits"];
  validate: ReturnType<typeof schemaValidators>["manifest"];
  manifests: Record<string, unknown>[];
  members: ReturnType<typeof canonicalMembers>[];
}

/** The stage the strict path row compares with JSON.parse: everything the check does before the signature. */
export const STRICT_PATH = "the strict path: the one scan, the schema and the cross-field rules";
export const JSON_PARSE = "JSON.parse of the same text, for comparison";

const STAGES: Record<string, (sample: Sample, i: number) => unknown> = {
  "read the file": (s, i) => readFileSync(s.files[i]!),
  "parse strictly (duplicates, exact integers, surrogates), alone": (s, i) => parseJson(s.texts[i]!, s.limits),
  "parse strictly and canonicalize in one scan (the check's)": (s, i) => parseCanonical(s.texts[i]!, s.limits),
  [JSON_PARSE]: (s, i) => JSON.parse(s.texts[i]!),
  [STRICT_PATH]: (s, i) => {
    const parsed = parseCanonical(s.texts[i]!, s.limits);
    return parsed.ok && structureProblems(parsed.value, s.settings.standardsUrl, PUBLISHED_LEGACY_CHECKS);
  },
  "validate against the schema (ajv)": (s, i) => s.validate(s.manifests[i]),
  "cross-field rules": (s, i) => crossFieldProblems(s.manifests[i]!),
  "canonicalize (JCS) a parsed value, alone": (s, i) => canonicalMembers(s.manifests[i]!),
  "verify the Ed25519 signature": (s, i) => verifyProfileA(s.manifests[i]!, undefined, s.members[i]),
  "build only: encode the body, SHA-256 for the ETag": (s, i) =>
    createHash("sha256")
      .update(utf8(joinMembers(s.members[i]!)))
      .digest(),
};

/** Microseconds per manifest for each stage, over the first files of the corpus's first folder. */
export async function manifestStages(content: string): Promise<[stage: string, micros: number][]> {
  const timings: [string, number][] = [];
  for (const stage of Object.keys(STAGES)) {
    const worker = typescriptWorker(new URL(import.meta.url), { workerData: { content, stage } });
    const micros = await new Promise<number>((resolve, reject) =>
      worker.once("message", resolve).once("error", reject),
    );
    await worker.terminate();
    timings.push([stage, micros]);
  }
  return timings;
}

function sampleOf(content: string): Sample {
  const folder = join(
    content,
    readdirSync(content)
      .filter((name) => !name.startsWith("_"))
      .sort()[0]!,
  );
  const files = readdirSync(folder)
    .slice(0, SAMPLE)
    .map((name) => join(folder, name));
  const texts = files.map((file) => readFileSync(file, "utf8"));
  const settings = settingsFromEnv({});
  const manifests = texts.map(
    (text) =>
      (parseJson(text, settings.limits) as Extract<JsonParseResult, { ok: true }>).value as Record<string, unknown>,
  );
  return {
    files,
    texts,
    settings,
    limits: settings.limits,
    validate: schemaValidators(settings.contextUrl, settings.resolverUrl).manifest,
    manifests,
    members: manifests.map((m) => canonicalMembers(m)),
  };
}

function timeStage(content: string, stage: string): number {
  const sample = sampleOf(content);
  const run = (i: number) => STAGES[stage]!(sample, i % sample.files.length);
  for (let i = 0; i < WARM_UP; i++) run(i);
  const rounds = Array.from({ length: ROUNDS }, () => {
    const started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) run(i);
    return ((performance.now() - started) * 1000) / PER_ROUND;
  });
  return rounds.sort((a, b) => a - b)[ROUNDS >> 1]!;
}

if (!isMainThread && workerData?.stage !== undefined) {
  parentPort!.postMessage(timeStage(workerData.content, workerData.stage));
}
