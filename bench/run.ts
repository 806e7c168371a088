/**
 * `npm run bench [-- --n N] [--floor-n F] [--runs R] [--duration S] [--soak S] [--only-floor | --only-witness]`
 *   The issue's targets first: check and build of F manifests against the floor program
 *   (bench/floor.mjs), cold and warm, in the same working copy and as CI runs them (with
 *   --only-floor, nothing else); then the rest at N.
 * `npm run bench -- --only-witness`: only the witness's rows (bench/witness.ts), written to bench/results-witness.md.
 * `npm run bench -- --scale M [--n N]`: only the large check and build, cold then warm (peak
 *   memory of each, the cold build's time against one cold build of N, the warm one's
 *   against the cold one's), written to bench/results-scale.md.
 *
 * Every figure is a median of R runs (the start time's, of STARTS), and every ratio is taken
 * pair by pair against its baseline measured in the same run, on the same machine, side by
 * side (the two orders alternate, and the page cache is flushed with `sync` before each timed
 * file-system run), so that a noisy shared machine moves both sides alike. Prints one table
 * and writes it, with the machine's description, to bench/results.md.
 *
 * `check` and `build` keep per-file results in a verification cache (UM_CACHE_DIR), so
 * their time depends on what ran before, and both cases are measured. Cold: each run starts
 * from a fresh, empty cache (and a build from no output folder), as a first run or a CI
 * job does. Warm: an untimed run fills the cache (and leaves its output folder, as a
 * publisher's build would), then before each timed run CHANGED manifests are re-signed with
 * new content, new each run, so that exactly those miss the cache: a publisher's next run.
 * Every run here has its cache under bench/.cache/work, never the default one.
 */
import { build } from "esbuild";
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem, type as osType, release } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { directoryReader } from "../edge/adapters/node.ts";
import { KV_BINDING } from "../edge/descriptor.ts";
import { kvKey } from "../edge/records.ts";
import { handleRequest } from "../edge/handler.ts";
import { StaticRecords } from "../edge/static-records.ts";
import { statusPath, umidPath } from "../core/umid-path.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { devChangeServed } from "./dev-latency.ts";
import { manifestSchema } from "../core/validate/manifest-schema.ts";
import { fileDigests } from "../tests/support/file-tree.ts";
import { startPrintingUrl, type Started } from "../tests/support/processes.ts";
import { wranglerConfig } from "../tests/support/runtimes.ts";
import { BASE, corpus, git, gitCorpus, rewriteManifests, umidOf, withChangedManifests } from "./corpus.ts";
import { evaluatorThroughput } from "./evaluator.ts";
import { JSON_PARSE, manifestStages, STRICT_PATH } from "./stages.ts";
import { statusListStage } from "./status-lists.ts";
import { addCheckpointLatency, type StateFolder, witnessThroughput } from "./witness.ts";
import { bundleWeights } from "../tools/bundle-size.ts";
import { staticOutput, writesKv } from "../scripts/plan/host-limits.ts";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    runs: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    soak: { type: "string", default: "120" },
    scale: { type: "string" },
    "floor-n": { type: "string", default: "20000" },
    "only-floor": { type: "boolean", default: false },
    "only-witness": { type: "boolean", default: false },
  },
});
const N = Number(values.n);
const RUNS = Number(values.runs);
const DURATION = Number(values.duration);
/** Manifests in the corpus of the rows against the floor: the issue's targets are at 20,000. */
const FLOOR_N = Number(values["floor-n"]);
const ROOT = join(import.meta.dirname, "..");
const WORK = join(import.meta.dirname, ".cache", "work");
const CLI = join(ROOT, "bench/measured-cli.mjs");
const BIN = join(ROOT, "bin/manifest-resolver.js");
const FLOOR = join(ROOT, "bench/floor.mjs");
/** A start takes tens of milliseconds, so many cheap runs steady its median. */
const STARTS = 21;
/** Manifests changed before each warm run: the publisher's edit a warm run follows. */
const CHANGED = 100;
/** Manifests changed in a pull request, for the rows against the floor. */
const PR_CHANGED = 20;
const log = (line: string) => process.stderr.write(`${line}\n`);
/** The project size `dev`'s row is measured at. */
const DEV_N = 1000;

interface Row {
  what: string;
  ours: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean | undefined;
}
const rows: Row[] = [];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);

interface Run {
  ms: number;
  maxRssKiB?: number;
}

/** Runs a command to completion: wall time, and our CLI's peak RSS when it reports one. */
function timed(command: string, args: string[], env: Record<string, string> = {}): Run {
  spawnSync("sync");
  const started = performance.now();
  const result = spawnSync(command, args, {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  const elapsed = performance.now() - started;
  // No corpus file is invalid, so any failure (ajv-cli's included) is a real one.
  if (result.status !== 0) {
    throw new Error(`${command} ${args.slice(0, 3).join(" ")} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  }
  const rss = /\{"maxRssKiB":(\d+)\}\s*$/.exec(result.stderr)?.[1];
  return rss === undefined ? { ms: elapsed } : { ms: elapsed, maxRssKiB: Number(rss) };
}

/** A verification cache's folder, removed: what a cold run starts from. */
function emptied(cache: string): string {
  rmSync(cache, { recursive: true, force: true });
  return cache;
}
const COLD_CACHE = join(WORK, "cache-cold");

/** Our CLI (as measured-cli runs it), timed, with its verification cache in `cache`. */
const ourCli = (args: string[], cache: string) => timed(process.execPath, [CLI, ...args], { UM_CACHE_DIR: cache });
const ourCheck = (content: string, cache: string) => ourCli(["check", content], cache);
const ourBuild = (content: string, out: string, manifests: number, cache: string) =>
  ourCli(
    ["build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`, ...kvOut(manifests, out)],
    cache,
  );

/** A cold build: no output folder and an empty cache. */
function coldBuild(content: string, out: string, manifests: number, cache = COLD_CACHE): Run {
  rmSync(out, { recursive: true, force: true });
  return ourBuild(content, out, manifests, emptied(cache));
}

/** A warm run, timed: one untimed run first fills the cache; each timed one follows `change()`. */
function warm(run: () => number, change: () => void): () => number {
  run();
  return () => {
    change();
    return run();
  };
}

interface SideBySide {
  ours: number;
  baseline: number;
  ratio: number;
}

/** `runs` runs of ours and a baseline, alternating which goes first; medians and the median ratio. */
function sideBySide(ours: () => number, baseline: () => number, runs = RUNS): SideBySide {
  const pairs: [number, number][] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      const a = ours();
      pairs.push([a, baseline()]);
    } else {
      const b = baseline();
      pairs.push([ours(), b]);
    }
  }
  return {
    ours: median(pairs.map((p) => p[0])),
    baseline: median(pairs.map((p) => p[1])),
    ratio: median(pairs.map(([a, b]) => a / b)),
  };
}

/** A time against the baseline beside it, met when the median ratio is at most `limit`. */
function timeRow(what: string, result: SideBySide, against: string, limit: number): void {
  rows.push({
    what,
    ours: ms(result.ours),
    baseline: `${against}: ${ms(result.baseline)}`,
    ratio: `${result.ratio.toFixed(2)}×`,
    target: `≤ ${limit.toLocaleString("en", { minimumFractionDigits: 1 })}×`,
    met: result.ratio <= limit,
  });
}

/** Peak RSS, against the 1 GiB a check or build must stay under at any size. */
function peakMemoryRow(what: string, run: Run): void {
  const rssMiB = (run.maxRssKiB ?? 0) / 1024;
  rows.push({
    what,
    ours: `${rssMiB.toFixed(0)} MiB RSS`,
    baseline: "1 GiB",
    ratio: `${(rssMiB / 1024).toFixed(2)}×`,
    target: "≤ 1 GiB",
    met: rssMiB <= 1024,
  });
}

/** The CLI's start, through the real bin, beside Node's own: what every command pays first. */
function startTime(): void {
  log(`start ×${STARTS} vs node -e 0 ...`);
  const s = sideBySide(
    () => timed(process.execPath, [BIN, "--version"]).ms,
    () => timed(process.execPath, ["-e", "0"]).ms,
    STARTS,
  );
  rows.push({
    what: "start: manifest-resolver --version",
    ours: ms(s.ours),
    baseline: `node -e 0: ${ms(s.baseline)}`,
    ratio: `${s.ratio.toFixed(2)}×`,
    target: "≤ 150 ms",
    met: s.ours <= 150,
  });
  // A command's --help loads that command's declaration only (issue 38): it costs little more than --version.
  log(`build --help ×${STARTS} vs --version ...`);
  const help = sideBySide(
    () => timed(process.execPath, [BIN, "build", "--help"]).ms,
    () => timed(process.execPath, [BIN, "--version"]).ms,
    STARTS,
  );
  rows.push({
    what: "start: manifest-resolver build --help",
    ours: ms(help.ours),
    baseline: `manifest-resolver --version: ${ms(help.baseline)}`,
    ratio: `${help.ratio.toFixed(2)}×`,
    target: "≤ 1.3×",
    met: help.ratio <= 1.3,
  });
}

/** `dev` serves a saved change within 2 s at 1,000 manifests (issue 39). */
async function devServes(): Promise<void> {
  log(`dev: a change served, ${DEV_N} manifests, ×${RUNS + 2} ...`);
  const times = await devChangeServed(BIN, WORK, DEV_N, RUNS + 2);
  const served = median(times);
  rows.push({
    what: `dev: a saved change served, ${DEV_N} manifests`,
    ours: ms(served),
    baseline: `each: ${times.map(ms).join(", ")}`,
    ratio: "",
    target: "≤ 2 s",
    met: served <= 2000,
  });
}

/**
 * Builds and checks the corpus beside their baselines, cold, then warm after CHANGED
 * manifests changed; leaves a cold build of the corpus as made for the servers.
 */
async function buildAndCheck(content: string): Promise<{ dist: string }> {
  const out = join(WORK, "dist");
  const copy = join(WORK, "copy");
  const copyOnce = () => {
    rmSync(copy, { recursive: true, force: true });
    return timed("cp", ["-r", content, copy]).ms;
  };
  const schema = join(WORK, "schema.json");
  writeFileSync(schema, JSON.stringify(manifestSchema(settingsFromEnv({}).contextUrl)));
  const ajvCli = join(ROOT, "node_modules/ajv-cli/dist/index.js");
  const ajvOnce = () =>
    timed(process.execPath, [
      ajvCli,
      "validate",
      "--spec=draft2020",
      "-c",
      "ajv-formats",
      "--strict=false",
      "--errors=no",
      "-s",
      schema,
      "-d",
      `${content}/**/[0-9]*.json`,
    ]).ms;

  log(`build ${N} vs cp -r ...`);
  timeRow(
    `build of ${N} manifests, signatures verified`,
    sideBySide(() => coldBuild(content, out, N).ms, copyOnce),
    "cp -r",
    2,
  );
  log(`check ${N} vs ajv-cli ...`);
  timeRow(
    `check of ${N} manifests, signatures verified`,
    sideBySide(() => ourCheck(content, emptied(COLD_CACHE)).ms, ajvOnce),
    "ajv-cli, schema only",
    2,
  );

  await withChangedManifests(N, CHANGED, async (change) => {
    log(`warm check ${N} vs ajv-cli ...`);
    const checkCache = emptied(join(WORK, "cache-warm-check"));
    timeRow(
      `warm check of ${N} manifests after ${CHANGED} changed`,
      sideBySide(
        warm(() => ourCheck(content, checkCache).ms, change),
        ajvOnce,
      ),
      "ajv-cli, schema only",
      0.3,
    );
    log(`warm build ${N} vs cp -r ...`);
    const warmOut = join(WORK, "dist-warm");
    rmSync(warmOut, { recursive: true, force: true });
    const buildCache = emptied(join(WORK, "cache-warm-build"));
    timeRow(
      `warm build of ${N} manifests after ${CHANGED} changed`,
      sideBySide(
        warm(() => ourBuild(content, warmOut, N, buildCache).ms, change),
        copyOnce,
      ),
      "cp -r",
      0.5,
    );
    removeBuild(warmOut);
  });
  rmSync(copy, { recursive: true, force: true });
  coldBuild(content, out, N);
  return { dist: out };
}

/** The floor program (bench/floor.mjs) over `content`, timed; with `out`, writing into a fresh folder. */
function floor(content: string, out?: string): number {
  if (out === undefined) return timed(process.execPath, [FLOOR, content]).ms;
  rmSync(out, { recursive: true, force: true });
  return timed(process.execPath, [FLOOR, content, "--out", out]).ms;
}

/** Copies a saved folder to `to`, times and modes kept (as a CI cache restores one), replacing it. */
function restored(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  if (spawnSync("cp", ["-a", from, to]).status !== 0) throw new Error(`cp -a ${from} ${to} failed`);
}

/** The cold rows against the floor of `n` manifests in `content`, with the build's output, the floor's and the cache at `at`. */
function coldAgainstTheFloor(
  n: number,
  content: string,
  at: { out: string; floorOut: string; cache: string },
  where: string,
): void {
  log(`check ${n} vs floor${where} ...`);
  timeRow(
    `cold check of ${n} manifests, no cache${where}`,
    sideBySide(
      () => ourCheck(content, emptied(at.cache)).ms,
      () => floor(content),
    ),
    "floor",
    1.25,
  );
  log(`build ${n} vs floor --out${where} ...`);
  timeRow(
    `cold build of ${n} manifests, no cache, fresh output folder${where}`,
    sideBySide(
      () => coldBuild(content, at.out, n, at.cache).ms,
      () => floor(content, at.floorOut),
    ),
    "floor --out",
    1.25,
  );
  removeBuild(at.out);
  rmSync(at.floorOut, { recursive: true, force: true });
}

/** Issue 42: everything the check does to a manifest before its signature, on one core, against JSON.parse. */
function strictPathRow(stages: [string, number][]): void {
  const micros = (stage: string) => stages.find(([name]) => name === stage)![1];
  const ratio = micros(STRICT_PATH) / micros(JSON_PARSE);
  rows.push({
    what: "strict path per manifest, one core: the one scan, the schema, the cross-field rules",
    ours: `${micros(STRICT_PATH).toFixed(1)} µs`,
    baseline: `JSON.parse of the same bytes: ${micros(JSON_PARSE).toFixed(1)} µs`,
    ratio: `${ratio.toFixed(2)}×`,
    target: "≤ 2.0×",
    met: ratio <= 2,
  });
  floorStages = stages;
}

/**
 * The issue's targets: check and build of FLOOR_N manifests against the floor program,
 * cold, then warm after PR_CHANGED manifests changed, in the same working copy (the corpus
 * is a git repository, the changes uncommitted, as a publisher edits) and as CI runs them.
 */
async function againstTheFloor(): Promise<void> {
  const n = FLOOR_N;
  const { repo, content } = await gitCorpus(n, log);
  const out = join(WORK, "floor-dist");
  const floorOut = join(WORK, "floor-out");
  coldAgainstTheFloor(n, content, { out, floorOut, cache: COLD_CACHE }, "");
  // The same on a tmpfs, content, output and cache: the program's own time, whatever the disk does meanwhile.
  const shm = join("/dev/shm", `um-bench-floor-${process.pid}`);
  if (existsSync("/dev/shm")) {
    log(`copying the corpus to ${shm} ...`);
    restored(repo, shm);
    const onTmpfs = (name: string) => join(shm, `.bench-${name}`);
    coldAgainstTheFloor(
      n,
      join(shm, relative(repo, content)),
      { out: onTmpfs("dist"), floorOut: onTmpfs("floor-out"), cache: onTmpfs("cache") },
      ", on a tmpfs",
    );
    rmSync(shm, { recursive: true, force: true });
  }
  strictPathRow(await manifestStages(content));
  await withChangedManifests(n, PR_CHANGED, async (change) => {
    log(`warm check ${n} vs floor ...`);
    const checkCache = emptied(join(WORK, "floor-cache-check"));
    timeRow(
      `warm check of ${n} manifests after ${PR_CHANGED} changed, same working copy`,
      sideBySide(
        warm(() => ourCheck(content, checkCache).ms, change),
        () => floor(content),
      ),
      "floor",
      0.15,
    );
    log(`warm build ${n} vs floor --out ...`);
    const buildCache = emptied(join(WORK, "floor-cache-build"));
    removeBuild(out);
    timeRow(
      `warm build of ${n} manifests after ${PR_CHANGED} changed, same working copy, into the previous output`,
      sideBySide(
        warm(() => ourBuild(content, out, n, buildCache).ms, change),
        () => floor(content, floorOut),
      ),
      "floor --out",
      0.15,
    );
    warmIsCold(`warm build of ${n} manifests, same working copy`, content, out, n);
  });
  asCiRunsThem(repo, n, floorOut);
  await withChangedManifests(n, PR_CHANGED, async (change) => withTheLog(content, n, change));
  removeBuild(out);
  for (const folder of [floorOut, join(WORK, "floor-cache-check"), join(WORK, "floor-cache-build")])
    rmSync(folder, { recursive: true, force: true });
}

/**
 * The warm rows as CI runs them. The base's build ran in a fresh clone with no cache, and its
 * cache and output were saved. Each run then commits PR_CHANGED re-signed manifests on top of
 * the base (in `origin`, a clone of the corpus standing for the publisher's remote), clones
 * that head afresh at the same path, restores the saved cache (and, for a build, output) by
 * copying, and runs there. Only the run itself is timed.
 */
function asCiRunsThem(repo: string, n: number, floorOut: string): void {
  const ci = join(WORK, "ci");
  rmSync(ci, { recursive: true, force: true });
  mkdirSync(ci);
  const origin = join(ci, "origin");
  const clone = join(ci, "clone");
  const cloneContent = join(clone, "content");
  const cache = join(ci, "cache");
  const out = join(ci, "dist");
  const saved = join(ci, "saved");
  // Each folder CI keeps between builds, and where it is kept: the cache, then the output.
  const outputs = (at: string) => buildFolders(at).filter((_, i) => i < 2 || writesKvAt(n));
  const keptCache = { live: cache, kept: join(saved, "cache") };
  const keptOutput = outputs(out).map((live, i) => ({ live, kept: outputs(join(saved, "dist"))[i]! }));
  git(ci, ["clone", "-q", "--branch", BASE, repo, origin]);
  log(`CI: the base's build ...`);
  git(ci, ["clone", "-q", origin, clone]);
  coldBuild(cloneContent, out, n, cache);
  mkdirSync(saved);
  for (const { live, kept } of [keptCache, ...keptOutput]) renameSync(live, kept);
  let revision = 0;
  const headCloned = () => {
    git(origin, ["checkout", "-q", "-B", "head", BASE]);
    rewriteManifests(join(origin, "content"), n, PR_CHANGED, ++revision);
    git(origin, ["commit", "-q", "-a", "-m", `${PR_CHANGED} manifests re-signed`]);
    rmSync(clone, { recursive: true, force: true });
    git(ci, ["clone", "-q", "--branch", "head", origin, clone]);
    restored(keptCache.kept, cache);
  };
  log(`CI: warm check ${n} vs floor ...`);
  timeRow(
    `warm check of ${n} manifests after ${PR_CHANGED} changed, as CI: fresh clone, cache restored`,
    sideBySide(
      () => {
        headCloned();
        return ourCheck(cloneContent, cache).ms;
      },
      () => floor(cloneContent),
    ),
    "floor",
    0.15,
  );
  log(`CI: warm build ${n} vs floor --out ...`);
  timeRow(
    `warm build of ${n} manifests after ${PR_CHANGED} changed, as CI: fresh clone, cache and output restored`,
    sideBySide(
      () => {
        headCloned();
        for (const { live, kept } of keptOutput) restored(kept, live);
        return ourBuild(cloneContent, out, n, cache).ms;
      },
      () => floor(cloneContent, floorOut),
    ),
    "floor --out",
    0.15,
  );
  warmIsCold(`warm build of ${n} manifests, as CI`, cloneContent, out, n);
  rmSync(ci, { recursive: true, force: true });
}

/**
 * Issue 26's targets: `log` after PR_CHANGED changed against the floor (an untimed first
 * run made the log of all n), and the warm build with the log (its gate, and the log it
 * publishes) against the same warm build with the log moved aside. Each build runs after
 * the same change, and `log` (untimed) runs before the one with the log, as a publisher
 * does. The log is removed after, so the saved corpus stays as made.
 */
function withTheLog(content: string, n: number, change: () => void): void {
  const key = join(WORK, "log.pem");
  writeFileSync(key, generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }));
  const logDir = join(content, "_log");
  const aside = join(WORK, "log-aside");
  const logCache = emptied(join(WORK, "floor-cache-log"));
  const runLog = () => ourCli(["log", "--key", key, "--origin", "bench.example/log", "--content", content], logCache);
  try {
    log(`log ${n} vs floor ...`);
    timeRow(
      `log of ${n} manifests after ${PR_CHANGED} changed, same working copy`,
      sideBySide(
        warm(() => runLog().ms, change),
        () => floor(content),
      ),
      "floor",
      0.15,
    );
    log(`warm build ${n} with the log vs without ...`);
    const [withLog, withoutLog] = [join(WORK, "dist-log"), join(WORK, "dist-no-log")];
    const [cacheWith, cacheWithout] = [emptied(join(WORK, "cache-log")), emptied(join(WORK, "cache-no-log"))];
    const buildWith = () => ourBuild(content, withLog, n, cacheWith).ms;
    const buildWithout = () => {
      renameSync(logDir, aside);
      try {
        return ourBuild(content, withoutLog, n, cacheWithout).ms;
      } finally {
        renameSync(aside, logDir);
      }
    };
    buildWith();
    buildWithout();
    timeRow(
      `warm build of ${n} manifests after ${PR_CHANGED} changed, with its log, into the previous output`,
      sideBySide(() => {
        change();
        runLog();
        return buildWith();
      }, buildWithout),
      "the same build without the log",
      1.1,
    );
    warmIsCold(`warm build of ${n} manifests with its log`, content, withLog, n);
    for (const out of [withLog, withoutLog]) removeBuild(out);
  } finally {
    for (const folder of [logDir, aside, logCache, join(WORK, "cache-log"), join(WORK, "cache-no-log")])
      rmSync(folder, { recursive: true, force: true });
  }
}

/** The commands of the scale runs, as a reader would type them to reproduce one. */
const scaleCommands: string[] = [];

/** Our CLI at scale, timed with its peak memory, and its command kept for the results file. */
function scaleRun(what: string, args: string[], cache: string): Run {
  const shown = (path: string) => relative(ROOT, path) || ".";
  const words = args.map((arg) => (arg.startsWith("/") ? shown(arg) : arg));
  scaleCommands.push(`# ${what}`, `UM_CACHE_DIR=${shown(cache)} node ${shown(CLI)} ${words.join(" ")}`);
  return ourCli(args, cache);
}

/**
 * The large registry: check and build of M manifests, cold (an empty cache, no output), then
 * warm after PR_CHANGED changed (the cold run's cache, and the cold build's output), in the
 * same working copy (the corpus is a git repository, the changes uncommitted); the peak
 * memory of each, the warm build's time against the cold one's, and the cold build's
 * against a cold build of N.
 */
async function scale(m: number): Promise<void> {
  const atN = join(WORK, "dist");
  removeBuild(atN);
  const { content: contentAtN } = await gitCorpus(N, log);
  const argsAtN = ["build", "--content", contentAtN, "--out", atN, "--lookup-out", `${atN}-lookup`, ...kvOut(N, atN)];
  log(`build ${N} ...`);
  const timeAtN = scaleRun(`cold build of ${N}: an empty cache, no output folder`, argsAtN, emptied(COLD_CACHE)).ms;
  // Issue 38: a warm build's cost follows the change, not the size: the same change at N, to set beside m's.
  const warmAtN = await withChangedManifests(N, PR_CHANGED, async (change) => {
    log(`build ${N} again, warm, after ${PR_CHANGED} changed ...`);
    change();
    return scaleRun(`warm build of ${N}, ${PR_CHANGED} changed, into the cold build's output`, argsAtN, COLD_CACHE).ms;
  });
  removeBuild(atN);
  const { content } = await gitCorpus(m, log);
  const out = join(WORK, "dist-scale");
  const checkCache = emptied(join(WORK, "cache-scale-check"));
  const buildCache = emptied(join(WORK, "cache-scale-build"));
  const buildArgs = ["build", "--content", content, "--out", out, "--lookup-out", `${out}-lookup`, ...kvOut(m, out)];
  log(`check ${m} ...`);
  const coldCheck = scaleRun(`cold check of ${m}: an empty cache`, ["check", content], checkCache);
  log(`build ${m} ...`);
  removeBuild(out);
  const cold = scaleRun(`cold build of ${m}: an empty cache, no output folder`, buildArgs, buildCache);
  log(`status lists of ${m} ...`);
  const lists = await statusListStage(
    content,
    Array.from({ length: m }, (_, i) => umidOf(i)),
    join(WORK, "lists"),
  );
  const [warmCheck, warmBuild] = await withChangedManifests(m, PR_CHANGED, async (change) => {
    log(`check ${m} again, warm, after ${PR_CHANGED} changed ...`);
    change();
    const checked = scaleRun(`warm check of ${m}, ${PR_CHANGED} changed`, ["check", content], checkCache);
    log(`build ${m} again, warm, after ${PR_CHANGED} changed ...`);
    change();
    const built = scaleRun(
      `warm build of ${m}, ${PR_CHANGED} changed, into the cold build's output`,
      buildArgs,
      buildCache,
    );
    return [checked, built] as const;
  });
  peakMemoryRow(`check of ${m} manifests, cold: peak memory`, coldCheck);
  peakMemoryRow(`build of ${m} manifests, cold: peak memory`, cold);
  peakMemoryRow(`check of ${m} manifests, warm after ${PR_CHANGED} changed: peak memory`, warmCheck);
  peakMemoryRow(`build of ${m} manifests, warm after ${PR_CHANGED} changed: peak memory`, warmBuild);
  const ratio = cold.ms / timeAtN;
  // "Within 12× of 100k at 1M": linear growth with 20% to spare, whatever the two sizes.
  const limit = (1.2 * m) / N;
  rows.push({
    what: `build of ${m} manifests, cold: time`,
    ours: ms(cold.ms),
    baseline: `${N}: ${ms(timeAtN)}`,
    ratio: `${ratio.toFixed(1)}×`,
    target: `≤ ${limit.toFixed(1)}× (linear: ${m / N}×)`,
    met: ratio <= limit,
  });
  // Issue 27: the build's status list stage, for an allocation of every manifest, adds at most 5% to a cold build.
  timeRow(
    `status lists of ${m} manifests (allocation read, lists derived, encoded, written): time`,
    { ours: lists, baseline: cold.ms, ratio: lists / cold.ms },
    "cold build",
    0.05,
  );
  timeRow(
    `build of ${m} manifests, warm after ${PR_CHANGED} changed, into the cold build's output: time`,
    { ours: warmBuild.ms, baseline: cold.ms, ratio: warmBuild.ms / cold.ms },
    "cold build",
    0.05,
  );
  timeRow(
    `warm build after ${PR_CHANGED} changed: ${m} manifests against ${N}`,
    { ours: warmBuild.ms, baseline: warmAtN, ratio: warmBuild.ms / warmAtN },
    `${N}`,
    1.5,
  );
  rows.push({
    what: `check of ${m} manifests, warm after ${PR_CHANGED} changed: time`,
    ours: ms(warmCheck.ms),
    baseline: `cold check: ${ms(coldCheck.ms)}`,
    ratio: `${(warmCheck.ms / coldCheck.ms).toFixed(2)}×`,
    target: "",
    met: undefined,
  });
  removeBuild(out);
  for (const cache of [checkCache, buildCache]) rmSync(cache, { recursive: true, force: true });
}

/** A build's output and what it writes beside it: the lookup page, then the KV files (when it writes them). */
const buildFolders = (out: string) => [out, `${out}-lookup`, `${out}-kv`];

/** A build's output and what it writes beside it, gone: they are large at scale. */
function removeBuild(out: string): void {
  for (const folder of buildFolders(out)) rmSync(folder, { recursive: true, force: true });
}

/**
 * Issue 38: a warm build's output is byte for byte what a cold build of the same content writes. Builds `content`
 * cold into a folder of its own and compares every file of the output, and of its KV files, with the warm build's
 * in `out`; a difference is a row not met, naming the first files, and stops the run.
 */
function warmIsCold(what: string, content: string, out: string, n: number): void {
  const cold = join(WORK, "dist-cold-reference");
  const cache = join(WORK, "cache-cold-reference");
  coldBuild(content, cold, n, cache);
  const folders = writesKvAt(n) ? ["", "-kv"] : [""];
  const differ = folders.flatMap((suffix) => {
    const [warmFiles, coldFiles] = [fileDigests(`${out}${suffix}`), fileDigests(`${cold}${suffix}`)];
    const paths = new Set([...Object.keys(warmFiles), ...Object.keys(coldFiles)]);
    return [...paths].filter((path) => warmFiles[path] !== coldFiles[path]).map((path) => `${out}${suffix}/${path}`);
  });
  removeBuild(cold);
  rmSync(cache, { recursive: true, force: true });
  rows.push({
    what: `${what}: its output against a cold build's`,
    ours: differ.length === 0 ? "byte for byte the same" : `${differ.length} files differ`,
    baseline: "a cold build of the same content",
    ratio: "",
    target: "the same",
    met: differ.length === 0,
  });
  if (differ.length > 0) throw new Error(`${what}: the warm output differs from a cold build's: ${differ.slice(0, 5)}`);
}

/**
 * Past Cloudflare's free static-file limit (scripts/plan/host-limits.ts) the build writes KV files: beside the
 * output, here.
 */
const writesKvAt = (manifests: number) =>
  writesKv(
    staticOutput({
      manifestFiles: manifests,
      redirects: Math.floor(manifests / 100),
      revoked: Math.floor(manifests / 100),
    }),
  );
const kvOut = (manifests: number, out: string) => (writesKvAt(manifests) ? ["--kv-out", `${out}-kv`] : []);

interface Fixture {
  ok: { headers: Record<string, string>; body: string };
  notModified: { headers: Record<string, string> };
}

/** The exact answers of one 200 and its 304, to serve from memory in the baselines. */
async function responseFixture(url: string, path: string): Promise<Fixture> {
  const keep = (h: Headers) =>
    Object.fromEntries(
      [...h].filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name)),
    );
  const ok = await fetch(url + path);
  const body = Buffer.from(await ok.arrayBuffer()).toString("base64");
  const nm = await fetch(url + path, { headers: { "If-None-Match": ok.headers.get("etag")! } });
  return { ok: { headers: keep(ok.headers), body }, notModified: { headers: keep(nm.headers) } };
}

async function requestsPerSecond(url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: DURATION, headers });
  if (result.non2xx > 0 && headers["If-None-Match"] === undefined)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

async function throughput(name: string, ours: Started, baseline: Started, path: string, etag: string): Promise<void> {
  for (const [label, headers] of [
    ["200", {}],
    ["304", { "If-None-Match": etag }],
  ] as const) {
    log(`${name} ${label} ...`);
    const pairs: [number, number][] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await requestsPerSecond(ours.url + path, headers);
      const b = await requestsPerSecond(baseline.url + path, headers);
      pairs.push([a, b]);
    }
    const ratio = median(pairs.map(([a, b]) => a / b));
    rows.push({
      what: `requests/s through ${name}, ${label}`,
      ours: `${Math.round(median(pairs.map((p) => p[0])))}/s`,
      baseline: `minimal, from memory: ${Math.round(median(pairs.map((p) => p[1])))}/s`,
      ratio: `${ratio.toFixed(2)}×`,
      target: "≥ 0.85×",
      met: ratio >= 0.85,
    });
  }
}

async function servers(dist: string): Promise<void> {
  const path = umidPath(umidOf(7));
  const serve = await startPrintingUrl(process.execPath, [BIN, "serve", "--dist", dist, "--port", "0"]);
  const fixture = await responseFixture(serve.url, path);
  const fixtureFile = join(WORK, "fixture.json");
  writeFileSync(fixtureFile, JSON.stringify(fixture));
  const minimal = await startPrintingUrl(process.execPath, [join(ROOT, "bench/minimal-node-server.mjs"), fixtureFile]);
  try {
    await throughput("manifest-resolver serve (Node)", serve, minimal, path, fixture.ok.headers.etag!);
  } finally {
    await minimal.stop();
  }

  const config = wranglerConfig();
  const worker = await build({
    entryPoints: [join(ROOT, config.main)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  // As deployed at this size: static assets, or, past the static-file limit, Workers KV
  // holding the records (here, the pairs of the UMIDs this measurement asks for).
  const useKv = writesKvAt(N);
  const ours = new Miniflare({
    modules: true,
    script: worker.outputFiles[0]!.text,
    compatibilityDate: config.compatibility_date,
    host: "127.0.0.1",
    port: 0,
    ...(useKv
      ? { kvNamespaces: [KV_BINDING] }
      : {
          assets: {
            directory: dist,
            binding: config.assets.binding,
            routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
            assetConfig: { html_handling: "none" as const, not_found_handling: "none" as const },
          },
        }),
  });
  if (useKv) {
    await ours.ready;
    const kv = (await ours.getKVNamespace(KV_BINDING)) as unknown as {
      put(key: string, value: string, options: { metadata: object }): Promise<void>;
    };
    const key = await kvKey(umidOf(7));
    // Bulk files, a folder of them per index shard, beside the folder's state (scripts/write/kv-output.ts).
    const files = readdirSync(`${dist}-kv`, { recursive: true, encoding: "utf8" }).filter((f) =>
      /(?:^|\/)kv-\d+\.json$/.test(f),
    );
    for (const name of files) {
      const pair = (
        JSON.parse(readFileSync(join(`${dist}-kv`, name), "utf8")) as { key: string; value: string; metadata: object }[]
      ).find((p) => p.key === key);
      if (pair !== undefined) await kv.put(pair.key, pair.value, { metadata: pair.metadata });
    }
  }
  const baseline = new Miniflare({
    modules: true,
    compatibilityDate: config.compatibility_date,
    host: "127.0.0.1",
    port: 0,
    script: `const f = ${JSON.stringify(fixture)};
      const body = Uint8Array.from(atob(f.ok.body), (c) => c.charCodeAt(0));
      export default { fetch(request) {
        return request.headers.has("if-none-match")
          ? new Response(null, { status: 304, headers: f.notModified.headers })
          : new Response(body, { headers: f.ok.headers });
      } };`,
  });
  try {
    const started = async (mf: Miniflare): Promise<Started> => {
      const url = (await mf.ready).origin;
      return { url, urls: [url], stop: () => mf.dispose() };
    };
    await throughput(
      `workerd (miniflare, ${useKv ? "Workers KV" : "static assets"})`,
      await started(ours),
      await started(baseline),
      path,
      fixture.ok.headers.etag!,
    );
  } finally {
    await ours.dispose();
    await baseline.dispose();
  }
  await soak(serve);
  await serve.stop();
}

/** The handler's own CPU time per request, warm: a lookup and a copy; for a manifest and for its status document. */
async function handlerCpu(dist: string): Promise<void> {
  const records = new StaticRecords().reading(directoryReader(dist));
  for (const [what, pathOf] of [
    ["a manifest", umidPath],
    ["a status document", statusPath],
  ] as const) {
    const sample = Array.from({ length: 1000 }, (_, i) => `http://resolver.test${pathOf(umidOf((i * 7919) % N))}`);
    for (const url of sample) await (await handleRequest(new Request(url), records)).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < 50_000; i++) {
      const request = new Request(sample[i % sample.length]!);
      const started = performance.now();
      await (await handleRequest(request, records)).arrayBuffer();
      times.push((performance.now() - started) * 1000);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.floor(q * (times.length - 1))]!;
    rows.push({
      what: `handler time per request, in process, warm: ${what}`,
      ours: `p50 ${p(0.5).toFixed(0)} µs, p99 ${p(0.99).toFixed(0)} µs`,
      baseline: "Netlify: 50 ms CPU",
      ratio: `${(p(0.99) / 50_000).toFixed(4)}×`,
      target: "p99 ≤ 1 ms",
      met: p(0.99) <= 1000,
    });
  }
}

/** The relying party's evaluator: receipts per second on one core beside check, and its size in a browser. */
async function evaluator(content: string): Promise<void> {
  log("evaluate vs check, one core ...");
  const rate = await evaluatorThroughput(content, RUNS);
  const perSecond = (x: number) => `${Math.round(x).toLocaleString("en")}/s`;
  rows.push({
    what: "evaluate: receipts per second, one core, signatures verified (WebCrypto)",
    ours: perSecond(rate.evaluate),
    baseline: `check, same manifests, one core: ${perSecond(rate.check)}`,
    ratio: `${(rate.evaluate / rate.check).toFixed(2)}×`,
    target: "",
    met: undefined,
  });
  const size = (await bundleWeights("evaluate")).common;
  rows.push({
    what: "evaluator bundle for a browser (manifest-resolver/evaluate)",
    ours: `${(size.minified / 1024).toFixed(1)} KiB minified, ${(size.gzipped / 1024).toFixed(1)} KiB gzip`,
    baseline: "60 KiB minified",
    ratio: `${(size.minified / (60 * 1024)).toFixed(2)}×`,
    target: "≤ 60 KiB minified",
    met: size.minified <= 60 * 1024,
  });
}

/** The edge function as each host bundles it: the same size at any number of manifests. */
async function bundleSize(): Promise<void> {
  for (const [host, entry] of [
    ["Netlify", "edge/adapters/netlify/resolver.ts"],
    ["Cloudflare", "edge/adapters/cloudflare/worker.ts"],
  ] as const) {
    const result = await build({
      entryPoints: [join(ROOT, entry)],
      bundle: true,
      format: "esm",
      platform: "neutral",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    const gz = gzipSync(result.outputFiles[0]!.contents).byteLength;
    rows.push({
      what: `edge function bundle (${host}), any number of manifests`,
      ours: `${(gz / 1024).toFixed(1)} KiB gzip`,
      baseline: host === "Netlify" ? "20 MB" : "3 MB",
      ratio: `${(gz / 1_048_576).toFixed(4)}×`,
      target: "≤ 1 MB",
      met: gz <= 1_048_576,
    });
  }
}

/** A bounded soak on loopback: every outcome, concurrently, for --soak seconds; statuses and memory. */
async function soak(serve: Started): Promise<void> {
  const seconds = Number(values.soak);
  if (seconds <= 0) return;
  log(`soak ${seconds}s ...`);
  const etag = (await fetch(serve.url + umidPath(umidOf(3)))).headers.get("etag")!;
  const cases: [string, string, Record<string, string>, number][] = [
    ["GET", umidPath(umidOf(3)), {}, 200],
    ["GET", umidPath(umidOf(11), "b64u"), {}, 200],
    ["GET", umidPath(umidOf(3)), { "If-None-Match": etag }, 304],
    ["HEAD", umidPath(umidOf(5)), {}, 200],
    ["GET", umidPath(umidOf(N)), {}, 307],
    ["GET", umidPath(umidOf(N + Math.max(1, Math.floor(N / 100)))), {}, 410],
    ["GET", "/urn:not:there", {}, 404],
    ["GET", "/a/b", {}, 400],
    ["POST", "/x", {}, 405],
    ["OPTIONS", "/x", {}, 204],
    ["GET", "/health", {}, 200],
  ];
  const rss: number[] = [];
  const sampler = setInterval(() => {
    if (serve.pid === undefined) return;
    const status = readFileSync(`/proc/${serve.pid}/status`, "utf8");
    rss.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }, 5000);
  let requests = 0;
  let unexpected = 0;
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 32 }, async (_, worker) => {
      for (let i = worker; Date.now() < deadline; i++) {
        const [method, path, headers, status] = cases[i % cases.length]!;
        try {
          const response = await fetch(serve.url + path, { method, headers, redirect: "manual" });
          await response.arrayBuffer();
          requests++;
          if (response.status !== status) unexpected++;
        } catch {
          errors++;
        }
      }
    }),
  );
  clearInterval(sampler);
  const first = rss.slice(0, Math.max(1, Math.floor(rss.length / 4)));
  const last = rss.slice(-Math.max(1, Math.floor(rss.length / 4)));
  const growth = rss.length === 0 ? NaN : median(last) - median(first);
  rows.push({
    what: `soak: ${seconds} s, 32 connections, all ${cases.length} outcomes, serve`,
    ours: `${requests} requests, ${unexpected} unexpected statuses, ${errors} errors`,
    baseline: `RSS ${rss.length ? `${median(first).toFixed(0)} → ${median(last).toFixed(0)} MiB` : "not sampled"}`,
    ratio: Number.isNaN(growth) ? "" : `${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MiB`,
    target: "0 unexpected, flat memory",
    met: unexpected === 0 && errors === 0 && !(growth > 32),
  });
}

/** The witness's targets (issue 41), its state on disk and on a tmpfs (/dev/shm): see bench/witness.ts. */
async function witness(): Promise<void> {
  const folders: StateFolder[] = [
    { label: "disk", dir: join(WORK, "witness-state") },
    { label: "tmpfs", dir: join("/dev/shm", `um-bench-witness-${process.pid}`) },
  ];
  log("witness: add-checkpoint to a log of 1,000,000 entries ...");
  const latency = await addCheckpointLatency(folders, Math.max(RUNS, 11));
  for (const [label, median] of latency)
    rows.push({
      what: `witness add-checkpoint, a log of 1,000,000 entries, 20 new, state on ${label} (in process)`,
      ours: `${median.toFixed(1)} ms`,
      baseline: "the target: 50 ms",
      ratio: `${(median / 50).toFixed(2)}×`,
      target: "≤ 1.0×",
      met: median <= 50,
    });
  log("witness: witness serve across 100 logs ...");
  const { ours, floor } = await witnessThroughput(folders, DURATION, WORK);
  for (const [label, rate] of ours)
    rows.push({
      what: `witness serve, add-checkpoint across 100 logs, keep-alive, state on ${label}`,
      ours: `${Math.round(rate)} req/s`,
      baseline: `node:http from memory: ${Math.round(floor)} req/s`,
      ratio: `${(rate / floor).toFixed(2)}×`,
      target: "≥ 500 req/s",
      met: rate >= 500,
    });
}

/** The stages of one manifest of the floor's corpus, timed alone (bench/stages.ts): the costs behind the ratios. */
let floorStages: [string, number][] = [];

function stagesTable(): string {
  const lines = floorStages.map(([stage, micros]) => `| ${stage} | ${micros.toFixed(1)} µs |`);
  return lines.length === 0
    ? ""
    : ["| stage, per manifest, one core, warm | time |", "| --- | --- |", ...lines].join("\n");
}

function table(): string {
  const header = ["what", "measured", "against (same run)", "ratio", "target", "met"];
  const lines = rows.map((r) => [
    r.what,
    r.ours,
    r.baseline,
    r.ratio,
    r.target,
    r.met === undefined ? "" : r.met ? "yes" : "**no**",
  ]);
  return [header, header.map(() => "---"), ...lines].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

mkdirSync(WORK, { recursive: true });
const started = performance.now();
if (values["only-witness"]) {
  await witness();
} else if (values.scale === undefined) {
  startTime();
  await devServes();
  await againstTheFloor();
  if (!values["only-floor"]) {
    const content = await corpus(N, log);
    const { dist } = await buildAndCheck(content);
    await evaluator(content);
    await handlerCpu(dist);
    await bundleSize();
    await servers(dist);
    await witness();
  }
} else {
  await scale(Number(values.scale));
}

const cpu = cpus()[0]?.model ?? "unknown CPU";
const machine =
  `${osType()} ${release()}, ${cpus().length} × ${cpu}, ` +
  `${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const command =
  values.scale === undefined
    ? `--n ${N} --floor-n ${FLOOR_N} --runs ${RUNS} --duration ${DURATION} --soak ${values.soak}` +
      (values["only-floor"] ? " --only-floor" : "") +
      (values["only-witness"] ? " --only-witness" : "")
    : `--scale ${values.scale} --n ${N}`;
const how = values["only-witness"]
  ? `The witness's rows alone (bench/witness.ts), each with its state folder on disk
(bench/.cache/work) and on a tmpfs (/dev/shm). add-checkpoint: the median of ${Math.max(RUNS, 11)}
answers of the web handler in this process over witness serve's file store (each record
fsync'd, and its folder, before the answer), 20 entries added to a log of 1,000,000 each time.
Throughput: witness serve, 100 logs, one chain of checkpoints per log posted in order over
keep-alive connections, all logs at once, for ${DURATION} s; beside it node:http answering from
memory to the same client (bench/minimal-node-server.mjs).`
  : values.scale === undefined
    ? `Medians of ${RUNS} runs (the start time's, of ${STARTS}); each ratio is the median of the
per-run ratios against the baseline measured beside it.

Cold: each run starts with an empty verification cache (a fresh UM_CACHE_DIR) and, for a
build, no output folder, as a first run or a CI job does; rows not called warm are cold.
Warm: an untimed run filled the cache and, for a build, left its output folder, as a
publisher's would be; then manifests were re-signed with new content, new each run, so that
exactly those miss the cache: ${PR_CHANGED} of the ${FLOOR_N} against the floor (bench/floor.mjs:
JSON.parse, JCS and Node's Ed25519 on all cores; with --out, each body written), ${CHANGED} of
the ${N} against cp -r and ajv-cli. "Same working copy": the corpus is a git repository and
the changes are not committed. "As CI": the base's build ran in a fresh clone; each run
commits the changes on top of the base, clones that head afresh at the same path, and copies
the base build's cache (and, for a build, its output) back in first, untimed.`
    : `One run of each, one after the other, on a corpus that is a git repository (the changes not
committed). Cold: an empty verification cache and, for a build, no output folder. Warm:
then ${PR_CHANGED} manifests were re-signed with new content; the warm check has the cold
check's cache, the warm build the cold build's cache and output. Peak memory is the CLI
process's peak RSS, its worker threads included (bench/measured-cli.mjs).`;
const reproduce =
  values.scale === undefined
    ? ""
    : `
The runs, in order (\`npm run bench -- ${command}\` makes the corpora in bench/.cache/corpus-N
first, and re-signs the changed manifests between the cold and the warm runs):

\`\`\`sh
${scaleCommands.join("\n")}
\`\`\`
`;
const report = `# Benchmark results

\`npm run bench -- ${command}\`, ${new Date().toISOString().slice(0, 10)}, in ${ms(performance.now() - started)}.

Machine: ${machine}.

${how}

${table()}
${reproduce}${stagesTable() && `\nWhere one manifest's time goes (each stage alone, in a fresh worker thread; check and\nbuild spread the manifests over UM_WORKERS threads):\n\n${stagesTable()}\n`}`;
const resultsFile =
  values.scale !== undefined ? "results-scale.md" : values["only-witness"] ? "results-witness.md" : "results.md";
writeFileSync(join(import.meta.dirname, resultsFile), report);
console.log(report);
