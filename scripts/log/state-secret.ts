/**
 * The secret that seals the log's states (log-state.ts) on this machine: 32 random bytes, made on first use, kept
 * outside every cache folder (`$XDG_STATE_HOME/manifest-resolver/`, default `~/.local/state/`), readable by its
 * owner only. A cache folder is written by any process of the user's and a CI cache is restored from elsewhere; a
 * state sealed with a key that is not this machine's is none, so a state forged there is never believed. Without a
 * secret (no home, a read-only one), there are no states: the log is audited whole, as without a cache.
 */
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { readRegularFile } from "../cache/regular-file.ts";
import { writeFileAtomically } from "../edit/json-file.ts";

const SECRET_BYTES = 32;

/** The file of this machine's secret. */
function secretFile(): string {
  const stateHome = process.env.XDG_STATE_HOME || join(homedir(), ".local", "state");
  return join(stateHome, "manifest-resolver", "log-state.key");
}

/** This machine's secret, made if there is none yet; undefined when it can be neither read nor made. */
export async function machineSecret(): Promise<Uint8Array | undefined> {
  const file = secretFile();
  try {
    const secret = readRegularFile(file, SECRET_BYTES);
    if (secret.length === SECRET_BYTES) return secret;
  } catch {
    // None yet, or not a secret: a new one replaces it.
  }
  try {
    const secret = randomBytes(SECRET_BYTES);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomically(file, secret, 0o600);
    // Two runs that made one at once: the one renamed last is the secret, and the other's states are not believed.
    return readRegularFile(file, SECRET_BYTES);
  } catch {
    return undefined;
  }
}
