/**
 * Settings a publisher may change, read from the environment (so that a host's build
 * settings, such as `[build.environment]` in netlify.toml, can set them), with defaults.
 *
 * | variable | default | meaning |
 * |---|---|---|
 * | `UM_STANDARDS_URL` | https://universalmanifest.net | manifests must use the context `{standards_url}/ns/v0.4` |
 * | `UM_MAX_MANIFEST_BYTES` | 1048576 (1 MiB) | largest manifest file |
 * | `UM_MAX_DEPTH` | 10 | containers nested in one another, the outermost counting 1 (at most 1000) |
 * | `UM_MAX_ARRAY_ITEMS` | 1000 | elements in one array |
 * | `UM_RESOLVER_URL` | (none) | the resolver the built lookup page asks by default; the did:web documents of keys
 * pinned on its host are published; a resolver base URL as clients take one (core/http/base-url.ts) |
 * | `UM_WORKERS` | cores, at most 4 | worker threads that check manifests; 0 checks on the main thread only |
 * | `UM_LOCK_WAIT_MS` | 10000 | how long a command waits for another that is editing the same content file |
 * | `UM_STATUS_NEXT_CHECK` | PT10M | the `nextCheck` of status documents (EXT-OPT O2.2): an ISO 8601 duration in
 * days, hours, minutes, seconds, at most P1D |
 */
import { availableParallelism } from "node:os";
import type { ShapeLimits } from "../core/json/strict-json.ts";
import { baseUrlProblem } from "../core/http/base-url.ts";
import { DEFAULT_NEXT_CHECK, durationSeconds, MAX_NEXT_CHECK_SECONDS } from "../core/status/status-document.ts";
import { excerpt } from "../core/excerpt.ts";

const DEFAULT_STANDARDS_URL = "https://universalmanifest.net";

export interface Limits extends ShapeLimits {
  maxManifestBytes: number;
}

export interface Settings {
  /** The standards site, without a trailing slash: namespaces are `{standardsUrl}/ns/v0.X`. */
  standardsUrl: string;
  contextUrl: string;
  limits: Limits;
  /** The resolver the lookup page asks by default; empty when not set. */
  resolverUrl: string;
  /** Worker threads for checking many manifests (0: the main thread only). */
  workers: number;
  /** How long an edit of a content file waits for another one to finish. */
  lockWaitMs: number;
  /** How long relying parties may keep a status document before they ask again (ISO 8601). */
  statusNextCheck: string;
}

/** A setting with a value it cannot have: a usage error, like a bad flag. */
export class ConfigError extends Error {}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const standardsUrl = (env.UM_STANDARDS_URL || DEFAULT_STANDARDS_URL).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+/.test(standardsUrl)) {
    throw new ConfigError(`UM_STANDARDS_URL must be an http or https URL, not '${standardsUrl}'`);
  }
  const resolverUrl = env.UM_RESOLVER_URL ?? "";
  // Held to what a client takes as a resolver (its host also decides which did:web documents a build publishes): the
  // lookup page, statusRefs and `init`'s settings all point relying parties at it.
  const resolverUrlProblem = resolverUrl === "" ? undefined : baseUrlProblem(resolverUrl);
  if (resolverUrlProblem !== undefined) throw new ConfigError(`UM_RESOLVER_URL: ${resolverUrlProblem}`);
  const statusNextCheck = env.UM_STATUS_NEXT_CHECK || DEFAULT_NEXT_CHECK;
  const nextCheckSeconds = durationSeconds(statusNextCheck);
  if (nextCheckSeconds === undefined || nextCheckSeconds > MAX_NEXT_CHECK_SECONDS) {
    throw new ConfigError(
      `UM_STATUS_NEXT_CHECK must be an ISO 8601 duration of days, hours, minutes and ` +
        `seconds, at most P1D, such as PT10M, not '${statusNextCheck}'`,
    );
  }
  return {
    resolverUrl,
    statusNextCheck,
    workers: env.UM_WORKERS === "0" ? 0 : positiveInteger(env, "UM_WORKERS", Math.min(availableParallelism(), 4)),
    lockWaitMs: positiveInteger(env, "UM_LOCK_WAIT_MS", 10_000),
    standardsUrl,
    contextUrl: `${standardsUrl}/ns/v0.4`,
    limits: {
      maxManifestBytes: positiveInteger(env, "UM_MAX_MANIFEST_BYTES", 1_048_576),
      maxDepth: positiveInteger(env, "UM_MAX_DEPTH", 10, MAX_DEPTH),
      maxArrayItems: positiveInteger(env, "UM_MAX_ARRAY_ITEMS", 1000),
    },
  };
}

/**
 * The deepest nesting UM_MAX_DEPTH may allow: the parser and the schema recurse once per
 * level, and past a few thousand levels Node's stack runs out. No manifest needs more.
 */
const MAX_DEPTH = 1000;

function positiveInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  if (!/^[1-9][0-9]*$/.test(text) || Number(text) > max) {
    throw new ConfigError(
      `${name} must be a positive whole ` +
        `number${max === Number.MAX_SAFE_INTEGER ? "" : ` of at most ${max}`}, not ` +
        `'${excerpt(text)}'`,
    );
  }
  return Number(text);
}
