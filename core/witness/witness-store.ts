/**
 * What a witness keeps: for each log, by its origin, the latest checkpoint it cosigned,
 * and the one interface every host's store implements (a folder of files under Node, a
 * Durable Object per log on Cloudflare). The record is JSON, so that an operator can read
 * it: `{"note": …, "rootHash": base64, "size": n}`; a record that is not one is refused,
 * never taken for "no checkpoint yet", which would let the log start over.
 */
import { decodeBase64, encodeBase64 } from "../base64url.ts";
import { HASH_SIZE, type Hash } from "../tlog/merkle.ts";

/** The latest checkpoint a witness cosigned for one log. */
export interface CosignedCheckpoint {
  size: number;
  rootHash: Hash;
  /** The checkpoint with the log's signatures the witness verified and its cosignature: what it serves monitors. */
  note: string;
}

export interface WitnessStore {
  /**
   * Calls `step` with the origin's latest cosigned checkpoint and, when it returns a `next`, keeps that instead,
   * persisted, before resolving. Two calls for one origin never both keep a `next` made from the same checkpoint: a
   * store runs them one at a time (the Node server's), or compares and swaps and calls `step` again with the
   * checkpoint kept meanwhile (the Cloudflare Worker's), so `step` must do nothing but compute its answer.
   */
  update<T>(
    origin: string,
    step: (latest: CosignedCheckpoint | undefined) => Promise<{ next?: CosignedCheckpoint; result: T }>,
  ): Promise<T>;
  latest(origin: string): Promise<CosignedCheckpoint | undefined>;
}

export function encodeCosigned(record: CosignedCheckpoint): string {
  return `${JSON.stringify({ note: record.note, rootHash: encodeBase64(record.rootHash), size: record.size })}\n`;
}

/** The record in `text`; throws when it is not one: a witness must not forget a log it cosigned. */
export function decodeCosigned(text: string): CosignedCheckpoint {
  const value: unknown = JSON.parse(text);
  const { note, rootHash, size } = (value ?? {}) as Record<string, unknown>;
  const hash = typeof rootHash === "string" ? decodeBase64(rootHash) : undefined;
  if (typeof note !== "string" || hash?.length !== HASH_SIZE || !Number.isSafeInteger(size) || (size as number) < 0)
    throw new TypeError("not a witness's record of a cosigned checkpoint");
  return { note, rootHash: hash, size: size as number };
}

/** The hex SHA-256 of an origin: the path segment a witness serves the log's checkpoint under, and a safe file name. */
export async function originHash(origin: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(origin)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
