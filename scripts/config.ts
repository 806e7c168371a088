/**
 * Settings a publisher may change: the project's own, in `manifest-resolver.json` at the
 * repository's top (written by `init` and `keygen`, read by scripts/check/project-config.ts),
 * overridden by the environment (so that a host's build settings, such as
 * `[build.environment]` in netlify.toml, can set them), overridden in turn by a command's
 * flags; else the defaults.
 *
 * | member of manifest-resolver.json | variable | default | meaning |
 * |---|---|---|---|
 * | `resolverUrl` | `UM_RESOLVER_URL` | (none) | the resolver's base URL (below) |
 * | `signingKeyRef` | `UM_SIGNING_KEY_REF` | (none) | the keyRef `sign` signs with |
 * | `keysDir` | `UM_KEYS_DIR` | `~/.manifest-keys/<repository folder's name>` | the folder of the private keys,
 * outside the repository: `signing.pem`, `log.pem`, `status-list.pem` |
 * | `statusLists` | `UM_STATUS_LISTS` (`on`, `off`) | off | whether `sign` gives statusRefs into status lists |
 * | `statusListKey` | | (none) | the did:key of the key that signs the status lists (`keygen --role status-list`) |
 * | `logOrigin` | `UM_LOG_ORIGIN` | `<resolver's host>/.well-known/manifest-resolver/log` | a new log's name |
 *
 * The other settings come from the environment alone:
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
import { availableParallelism, homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { ShapeLimits } from "../core/json/strict-json.ts";
import { baseUrlProblem } from "../core/http/base-url.ts";
import { DEFAULT_NEXT_CHECK, durationSeconds, MAX_NEXT_CHECK_SECONDS } from "../core/status/status-document.ts";
import { excerpt, quoted } from "../core/excerpt.ts";
import { isKeyName } from "../core/tlog/note.ts";
import { isInside } from "./read/content-root.ts";

const DEFAULT_STANDARDS_URL = "https://universalmanifest.net";

export interface Limits extends ShapeLimits {
  maxManifestBytes: number;
}

/** The project's settings file, at the repository's top. */
export const CONFIG_FILE = "manifest-resolver.json";

/** What `manifest-resolver.json` may hold, each member checked (scripts/check/project-config.ts). */
export interface ProjectConfig {
  resolverUrl?: string;
  signingKeyRef?: string;
  /** As written: `~` and `~/…` stand for the home folder, a relative path is from the repository's top. */
  keysDir?: string;
  statusLists?: boolean;
  statusListKey?: string;
  logOrigin?: string;
}

/** A project: its repository's top folder, and what its `manifest-resolver.json` says (`{}` for none). */
export interface Project {
  root: string;
  config: ProjectConfig;
}

/** The roles a key has, each its own file in the keys folder (`<role>.pem`). */
export const KEY_ROLES = ["signing", "log", "status-list", "witness"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

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
  /** The keyRef `sign` signs with when not told. */
  signingKeyRef: string | undefined;
  /** The folder of the private keys (absolute), outside the repository. */
  keysDir: string;
  /** Whether `sign` gives statusRefs into status lists. */
  statusLists: boolean;
  /** The did:key of the status lists' key, when one was made for the project. */
  statusListKey: string | undefined;
  /** A new log's name, when set. */
  logOrigin: string | undefined;
}

/** A setting with a value it cannot have: a usage error, like a bad flag. */
export class ConfigError extends Error {}

/** The file of the private key of `role` in the keys folder. */
export function keyFile(settings: Settings, role: KeyRole): string {
  return join(settings.keysDir, `${role}.pem`);
}

/** The keys folder a project's settings name: `~` is the home folder, a relative path is from the repository's top. */
export function keysFolder(written: string, root: string): string {
  if (written === "~" || written.startsWith("~/")) return join(homedir(), written.slice(1));
  return resolve(root, written);
}

/** The keys folder of a project that names none: documented in docs/commands.md ("Settings"). */
export function defaultKeysDir(root: string): string {
  return `~/.manifest-keys/${basename(resolve(root))}`;
}

/**
 * The settings: `project`'s (its `manifest-resolver.json`, already checked), each overridden by its variable in
 * `env`; the flags are the commands' to apply. UM_RESOLVER_URL set to "" overrides the file with no resolver; any
 * other variable set to "" is taken as unset, as a CI gives a secret or variable that is not defined.
 */
export function settingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  project: Project = { root: process.cwd(), config: {} },
): Settings {
  const { config, root } = project;
  const standardsUrl = (env.UM_STANDARDS_URL || DEFAULT_STANDARDS_URL).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/\s]+/.test(standardsUrl)) {
    throw new ConfigError(`UM_STANDARDS_URL must be an http or https URL, not '${standardsUrl}'`);
  }
  const resolverUrl = env.UM_RESOLVER_URL ?? config.resolverUrl ?? "";
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
  const logOrigin = env.UM_LOG_ORIGIN || config.logOrigin;
  if (logOrigin !== undefined && !isKeyName(logOrigin))
    throw new ConfigError(`UM_LOG_ORIGIN cannot name a log (no space, no '+', not empty), not '${excerpt(logOrigin)}'`);
  const keysDir = keysFolder(env.UM_KEYS_DIR || config.keysDir || defaultKeysDir(root), root);
  // The file's keysDir is held to this rule by scripts/check/project-config.ts; the variable, which keygen writes
  // into as well, to the same one here.
  if (env.UM_KEYS_DIR && isInside(keysDir, root))
    throw new ConfigError(
      `UM_KEYS_DIR ${quoted(env.UM_KEYS_DIR)} is inside the repository (${root}): config/keys-in-repository, ` +
        "private keys written there would be one git add away from being published; name a folder outside it",
    );
  return {
    resolverUrl,
    statusNextCheck,
    signingKeyRef: env.UM_SIGNING_KEY_REF || config.signingKeyRef,
    keysDir,
    statusLists: onOff(env, "UM_STATUS_LISTS") ?? config.statusLists ?? false,
    statusListKey: config.statusListKey,
    logOrigin,
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

/** A variable that turns a setting `on` or `off`; undefined when unset. */
function onOff(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  if (text === "on" || text === "off") return text === "on";
  throw new ConfigError(`${name} must be on or off, not '${excerpt(text)}'`);
}

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
