/**
 * The Worker's WitnessStore: each log's record in its own Durable Object (witness-log.ts),
 * updated by compare-and-swap. `update` reads the record, runs the witness's step on it
 * here, in the Worker, and asks the object to keep the step's `next` only if the record is
 * still the one read. When another request stored one first, the object says so and hands
 * back the record it holds now, and the step runs again on that: a request that was
 * consistent with a size a faster one has since moved past now gets its 409. So every
 * answer is decided on the record as it was when that answer's write, or read, took
 * place, and two requests never both advance from one size (C2SP tlog-witness's race).
 * The step only computes (a cosignature made and dropped is never seen), so running it
 * again is safe; a swap that fails means another request succeeded, so requests as a whole
 * always progress. The object holds no key and runs no protocol: those stay in one place,
 * the Worker.
 */
import {
  type CosignedCheckpoint,
  decodeCosigned,
  encodeCosigned,
  type WitnessStore,
} from "../../../../core/witness/witness-store.ts";
import type { RecordAnswer, SwapRequest } from "./witness-log.ts";

/** The part of a Durable Object namespace binding this uses. */
export interface WitnessLogNamespace<Id = unknown> {
  idFromName(name: string): Id;
  get(id: Id): { fetch(request: Request): Promise<Response> };
}

/** Any URL reaches the object: this one names what is asked of it. */
const RECORD_URL = "https://witness-log.internal/record";

export function durableWitnessStore<Id>(namespace: WitnessLogNamespace<Id>): WitnessStore {
  const objectOf = (origin: string) => namespace.get(namespace.idFromName(origin));
  return {
    async latest(origin) {
      return cosigned(await ask(objectOf(origin), new Request(RECORD_URL)));
    },
    async update(origin, step) {
      const log = objectOf(origin);
      let { record } = await ask(log, new Request(RECORD_URL));
      for (;;) {
        const { next, result } = await step(cosigned({ record }));
        if (next === undefined) return result;
        const swap: SwapRequest = { expected: record, next: encodeCosigned(next) };
        const answer = await ask(log, new Request(RECORD_URL, { method: "POST", body: JSON.stringify(swap) }));
        if (answer.swapped === true) return result;
        ({ record } = answer);
      }
    },
  };
}

async function ask(log: { fetch(request: Request): Promise<Response> }, request: Request): Promise<RecordAnswer> {
  const response = await log.fetch(request);
  if (!response.ok) throw new Error(`the log's Durable Object answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as RecordAnswer;
}

function cosigned({ record }: RecordAnswer): CosignedCheckpoint | undefined {
  return record === null ? undefined : decodeCosigned(record);
}
