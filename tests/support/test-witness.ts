/**
 * A witness for tests (C2SP tlog-witness): core/witness/witness-handler.ts served by node:http on a free local port,
 * with its state in memory, so that a test can read it, prime it (as if another party had submitted a checkpoint),
 * set its clock, and stop it (a witness that is down). Each request's event is kept, to see what was asked.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { COSIGNATURE_TYPE, formatVerifierKey, type NoteKey } from "../../core/tlog/note-keys.ts";
import { ed25519Signer } from "../../core/tlog/note-signature.ts";
import { SerialByKey } from "../../core/witness/serial-by-key.ts";
import { type WitnessEvent, witnessHandler } from "../../core/witness/witness-handler.ts";
import type { CosignedCheckpoint, WitnessStore } from "../../core/witness/witness-store.ts";

export interface TestWitness {
  name: string;
  /** Its submission prefix: add-checkpoint is at `${url}/add-checkpoint`. */
  url: string;
  /** Its cosigner verifier key, as a policy's witness line names it. */
  vkey: string;
  /** What it last cosigned, by origin: set one to prime it. */
  state: Map<string, CosignedCheckpoint>;
  /** Its clock, in seconds since 1970: now unless set. */
  clock: () => number;
  /** The requests it answered, in order. */
  events: WitnessEvent[];
  /** Stops it: it answers no more (connections are refused). */
  stop(): Promise<void>;
}

/** A witness named `name` that witnesses the log of `logKey` (its name is the log's origin). */
export async function startTestWitness(name: string, logKey: NoteKey): Promise<TestWitness> {
  const signer = (await ed25519Signer({ name, seed: new Uint8Array(randomBytes(32)) }, COSIGNATURE_TYPE))!;
  const state = new Map<string, CosignedCheckpoint>();
  const serial = new SerialByKey();
  const store: WitnessStore = {
    update: (origin, step) =>
      serial.run(origin, async () => {
        const { next, result } = await step(state.get(origin));
        if (next !== undefined) state.set(origin, next);
        return result;
      }),
    latest: async (origin) => state.get(origin),
  };
  const witness: TestWitness = {
    name,
    url: "",
    vkey: formatVerifierKey(name, signer.publicKey, COSIGNATURE_TYPE),
    state,
    clock: () => Math.floor(Date.now() / 1000),
    events: [],
    stop: async () => {},
  };
  const handler = witnessHandler({
    witness: { signer, logs: new Map([[logKey.name, [logKey]]]), clock: () => witness.clock() },
    store,
    log: (event) => witness.events.push(event),
  });
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method ?? "GET",
      ...(incoming.method === "POST" && { body: Buffer.concat(chunks) }),
    });
    const response = await handler(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  witness.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  witness.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return witness;
}

/** A policy's witness line for `witness`. */
export function witnessLine(witness: TestWitness): string {
  return `witness ${witness.name} ${witness.vkey} ${witness.url}`;
}
