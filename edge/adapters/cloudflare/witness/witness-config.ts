/**
 * The Cloudflare witness's configuration, from the Worker's environment:
 * - `WITNESS_NAME`: the cosigner key's name (a signed-note key name, such as `witness.example/w1`);
 * - `WITNESS_KEY`: a secret, its Ed25519 private key as a PKCS #8 PEM, what `keygen` and
 *   `openssl genpkey -algorithm ed25519` write;
 * - `WITNESS_LOGS`: the logs it witnesses, `log <vkey> [<url>]` lines (C2SP tlog-policy's
 *   syntax, no other kind of line), a log's origin being its key's name.
 * A configuration that is not one names the variable and what is wrong with it: the Worker
 * answers every request with it (500), and cosigns nothing.
 */
import { decodeBase64, decodeBase64url } from "../../../../core/base64url.ts";
import { parseLogPolicy } from "../../../../core/tlog/log-policy.ts";
import { isKeyName } from "../../../../core/tlog/note.ts";
import { COSIGNATURE_TYPE, type NoteKey } from "../../../../core/tlog/note-keys.ts";
import { ed25519Signer } from "../../../../core/tlog/note-signature.ts";
import type { Witness } from "../../../../core/witness/add-checkpoint.ts";

/** The Worker's variables and secrets this reads: anything, as a deployment may bind them wrongly. */
export interface WitnessVariables {
  WITNESS_NAME?: unknown;
  WITNESS_KEY?: unknown;
  WITNESS_LOGS?: unknown;
}

export type ConfiguredWitness =
  | { ok: true; witness: Witness }
  | { ok: false; variable: keyof WitnessVariables; reason: string };

class ConfigFault extends Error {
  constructor(
    readonly variable: keyof WitnessVariables,
    reason: string,
  ) {
    super(reason);
  }
}

export async function witnessFromVariables(env: WitnessVariables): Promise<ConfiguredWitness> {
  try {
    const name = nameOf(env.WITNESS_NAME);
    const seed = await seedOf(env.WITNESS_KEY);
    const signer = await ed25519Signer({ name, seed }, COSIGNATURE_TYPE);
    // With no key ID given, ed25519Signer has nothing to refuse.
    const witness: Witness = {
      signer: signer!,
      logs: logsOf(env.WITNESS_LOGS),
      clock: () => Math.floor(Date.now() / 1000),
    };
    return { ok: true, witness };
  } catch (error) {
    if (error instanceof ConfigFault) return { ok: false, variable: error.variable, reason: error.message };
    throw error;
  }
}

function nameOf(value: unknown): string {
  if (typeof value !== "string" || value === "")
    throw new ConfigFault(
      "WITNESS_NAME",
      "not set: the name of the witness's cosigner key, such as witness.example/w1",
    );
  if (!isKeyName(value))
    throw new ConfigFault("WITNESS_NAME", "not a signed-note key name: no spaces, no plus sign, printable characters");
  return value;
}

const PEM = /^-----BEGIN PRIVATE KEY-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END PRIVATE KEY-----$/;

/** The 32-byte Ed25519 seed of a PKCS #8 PEM, as WebCrypto reads it: any other key or encoding is refused. */
async function seedOf(value: unknown): Promise<Uint8Array> {
  if (typeof value !== "string" || value === "")
    throw new ConfigFault("WITNESS_KEY", "not set: wrangler secret put WITNESS_KEY < witness-key.pem");
  const body = PEM.exec(value.trim())?.[1];
  const der = body === undefined ? undefined : decodeBase64(body.replace(/\s+/g, ""));
  if (der === undefined)
    throw new ConfigFault(
      "WITNESS_KEY",
      "not a PEM private key (-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----)",
    );
  const d = await crypto.subtle
    .importKey("pkcs8", der, { name: "Ed25519" }, true, ["sign"])
    .then((key) => crypto.subtle.exportKey("jwk", key))
    .then(
      (jwk) => jwk.d,
      () => undefined,
    );
  const seed = d === undefined ? undefined : decodeBase64url(d);
  if (seed?.length !== 32) throw new ConfigFault("WITNESS_KEY", "not an Ed25519 private key in PKCS #8");
  return seed;
}

function logsOf(value: unknown): Map<string, NoteKey[]> {
  if (typeof value !== "string")
    throw new ConfigFault("WITNESS_LOGS", "not set: one line for each log witnessed, log <verifier key> [<url>]");
  const parsed = parseLogPolicy(value, { logsOnly: true });
  if (!parsed.ok) throw new ConfigFault("WITNESS_LOGS", `${parsed.line}:${parsed.column}: ${parsed.message}`);
  if (parsed.policy.logs.length === 0)
    throw new ConfigFault("WITNESS_LOGS", "lists no log: one line for each log witnessed, log <verifier key> [<url>]");
  const logs = new Map<string, NoteKey[]>();
  for (const { key } of parsed.policy.logs) logs.set(key.name, [...(logs.get(key.name) ?? []), key]);
  return logs;
}
