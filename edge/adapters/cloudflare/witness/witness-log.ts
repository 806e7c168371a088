/**
 * The Durable Object that holds one log's latest cosigned checkpoint: the Worker names one
 * object per origin (`idFromName(origin)`), so logs never wait on each other. It is a
 * register, read and compared-and-swapped (durable-witness-store.ts says why): `GET` its
 * record, `POST {expected, next}` keeps `next` only if the record is still `expected`, and
 * answers once the write is durable (storage.put awaited; the output gate holds the answer
 * until then too). Swaps run one at a time (SerialByKey), so no two compare the same record
 * whatever the input gate lets in between a read and a write. The record is
 * witness-store.ts's JSON; one that is not, or one smaller than the record it replaces, is
 * refused: a stored size never goes back.
 */
import { decodeCosigned } from "../../../../core/witness/witness-store.ts";
import { SerialByKey } from "../../../../core/witness/serial-by-key.ts";

/** The part of a Durable Object's state this uses. */
export interface WitnessLogState {
  storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: string): Promise<void>;
  };
}

/** A swap, as the Worker sends it: the record it read (null: none yet), and the one to keep instead. */
export interface SwapRequest {
  expected: string | null;
  next: string;
}

/** What the object answers a read or a swap: the record it holds now, and whether it is the swap's `next`. */
export interface RecordAnswer {
  record: string | null;
  swapped?: boolean;
}

const RECORD_KEY = "latest";

export class WitnessLog {
  private readonly serial = new SerialByKey();

  constructor(private readonly state: WitnessLogState) {}

  async fetch(request: Request): Promise<Response> {
    if (request.method === "GET") return json({ record: await this.record() });
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { allow: "GET, POST" } });
    const swap = swapRequest(await request.json().catch(() => undefined));
    if (swap === undefined) return new Response("not a swap of witness records\n", { status: 400 });
    return json(await this.serial.run(RECORD_KEY, () => this.swap(swap)));
  }

  private async swap({ expected, next }: SwapRequest): Promise<RecordAnswer> {
    const record = await this.record();
    if (record !== expected) return { record, swapped: false };
    if (record !== null && decodeCosigned(next).size < decodeCosigned(record).size)
      throw new RangeError("a witness record smaller than the one it would replace");
    await this.state.storage.put(RECORD_KEY, next);
    return { record: next, swapped: true };
  }

  /** The stored record; throws when what is stored is not one: a witness must not forget a log it cosigned. */
  private async record(): Promise<string | null> {
    const value = await this.state.storage.get(RECORD_KEY);
    if (value === undefined) return null;
    if (typeof value !== "string") throw new TypeError("not a witness's record of a cosigned checkpoint");
    decodeCosigned(value);
    return value;
  }
}

function swapRequest(value: unknown): SwapRequest | undefined {
  const { expected, next } = (value ?? {}) as Record<string, unknown>;
  if (!(expected === null || typeof expected === "string") || typeof next !== "string") return undefined;
  try {
    decodeCosigned(next);
  } catch {
    return undefined;
  }
  return { expected, next };
}

function json(answer: RecordAnswer): Response {
  return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
}
