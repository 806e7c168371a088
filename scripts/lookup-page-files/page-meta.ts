/**
 * What the lookup page's meta tags of the publisher's own are filled with (lookupPageFiles): the verifier key of the
 * content's transparency log and its witness policy, which the page checks the resolver's log with (build, serve and
 * dev), and the sample UMIDs its introduction offers (serve and dev only: a deployed page introduces no samples of its
 * own).
 */
import { readFileSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { INDEX_FOLDER, readIndexShard } from "../../edge/records.ts";
import { LOG_FOLDER, VERIFIER_FILE } from "../log/log-folder.ts";
import { readLogPolicy } from "../log/policy-file.ts";

/** A sample of the introduction: a UMID, and a few words about what a lookup of it shows. */
export interface LookupSample {
  umid: string;
  label: string;
}

/**
 * How the page checks the publisher's log, each "" for none: `logKey`, its verifier key (logVerifierKey); `logPolicy`,
 * its witness policy (content/_log/policy) as a client takes it, naming the log (policy-file.ts).
 */
export async function publishersLog(contentDir: string): Promise<{ logKey: string; logPolicy: string }> {
  const logKey = await logVerifierKey(contentDir);
  // One that cannot be read or used is none: `check` and `build` report it (log-gate.ts), `serve` still serves.
  const read = await readLogPolicy(join(contentDir, LOG_FOLDER), parseVerifierKey(logKey)).catch(() => undefined);
  return { logKey, logPolicy: read?.ok === true && read.policy.logs.length > 0 ? read.text : "" };
}

/** The verifier key of `contentDir`'s log (content/_log/verifier), or "" when it has none, or none that is one. */
async function logVerifierKey(contentDir: string): Promise<string> {
  let text: string;
  try {
    text = (await readFile(join(contentDir, LOG_FOLDER, VERIFIER_FILE), "utf8")).trimEnd();
  } catch {
    return "";
  }
  return parseVerifierKey(text) === undefined ? "" : text;
}

/** At most this many samples: an introduction, not a listing. */
export const MAX_SAMPLES = 8;
/** How many records are read for them: a start-up cost, kept small. */
const RECORDS_READ = 200;
const STATES = ["active", "suspended", "redirected", "revoked"] as const;
type SampleState = (typeof STATES)[number];
/** What a manifest holds, named in its label, in this order. */
const SECTIONS = ["claims", "facets", "consents", "pointers", "devices"];
const LONGEST_SUBJECT = 60;

/**
 * Samples of what `dist` serves, one of each state before a second of any (active, suspended, redirected, revoked),
 * `first` (when given) the first, then in the index's order, by state: the same output gives the same samples.
 */
export function lookupSamples(dist: string, first?: string): LookupSample[] {
  const byState = new Map<SampleState, LookupSample[]>(STATES.map((state) => [state, []]));
  let read = 0;
  const dir = join(dist, INDEX_FOLDER);
  for (const name of readdirSync(dir).sort()) {
    const shard = readIndexShard(readFileSync(join(dir, name)));
    // A shard the edge cannot read offers nothing: the edge answers its UMIDs 500.
    if ("problem" in shard) continue;
    for (const [umid, entry] of shard) {
      const sample = sampleOf(dist, umid, entry);
      if (sample === undefined) continue;
      const samples = byState.get(sample.state)!;
      if (umid === first) samples.unshift(sample);
      else samples.push(sample);
    }
    read += shard.size;
    if (read >= RECORDS_READ) break;
  }
  const taken = new Map<SampleState, LookupSample[]>(STATES.map((state) => [state, []]));
  for (let round = 0, count = 0; count < MAX_SAMPLES; round++) {
    const before = count;
    for (const state of STATES) {
      const next = byState.get(state)![round];
      if (next === undefined || count === MAX_SAMPLES) continue;
      taken.get(state)!.push(next);
      count++;
    }
    if (count === before) break;
  }
  return STATES.flatMap((state) => taken.get(state)!.map(({ umid, label }) => ({ umid, label })));
}

function sampleOf(dist: string, umid: string, entry: unknown): (LookupSample & { state: SampleState }) | undefined {
  const record = entry as { file?: unknown; redirect?: unknown; revoked?: unknown; status?: { status?: unknown } };
  if (record.revoked === true) return { umid, label: "revoked", state: "revoked" };
  if (typeof record.redirect === "string")
    return { umid, label: `redirected to ${hostOf(record.redirect)}`, state: "redirected" };
  if (typeof record.file !== "string") return undefined;
  const state = record.status?.status === "suspended" ? "suspended" : "active";
  const described = describe(dist, record.file);
  if (described === undefined) return undefined;
  return { umid, label: state === "active" ? described : `${described}, ${state}`, state };
}

/**
 * The manifest's subject, what it holds, and the trust tier it needs above 0: "did:web:a.example (claims)"; undefined
 * when its body is gone from the output or unreadable (the edge answers its UMID 500: no sample).
 */
function describe(dist: string, file: string): string | undefined {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(dist, file), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const subject = typeof manifest.subject === "string" ? manifest.subject : "manifest";
  const short = subject.length > LONGEST_SUBJECT ? `${subject.slice(0, LONGEST_SUBJECT - 1)}…` : subject;
  const held = SECTIONS.filter((section) => Array.isArray(manifest[section]) && manifest[section].length > 0);
  const tier = manifest.requiredTrustTier;
  return (
    short +
    (held.length > 0 ? ` (${held.join(", ")})` : "") +
    (typeof tier === "number" && tier > 0 ? `, needs Tier ${tier}` : "")
  );
}

function hostOf(location: string): string {
  try {
    return new URL(location).host;
  } catch {
    return "another resolver";
  }
}
