/**
 * The Cloudflare witness's store (edge/adapters/cloudflare/witness/durable-witness-store.ts)
 * over its Durable Object class, WitnessLog, run here on in-memory storage: every request
 * made to read before any step runs, the interleaving workerd seldom shows. Exactly one of
 * the steps from one record is kept, the others run again on the record kept; the object
 * refuses a record that is not one, one smaller than it holds, and a stored value that is
 * not a record.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { durableWitnessStore } from "../../edge/adapters/cloudflare/witness/durable-witness-store.ts";
import { WitnessLog } from "../../edge/adapters/cloudflare/witness/witness-log.ts";
import { type CosignedCheckpoint, encodeCosigned } from "../../core/witness/witness-store.ts";

function record(size: number): CosignedCheckpoint {
  return { size, rootHash: new Uint8Array(32).fill(size), note: `example.com/log\n${size}\n…\n` };
}

/** One WitnessLog per name, each on a Map of its own. */
function namespace() {
  const stored = new Map<string, ReturnType<typeof memory>>();
  const objects = new Map<string, WitnessLog>();
  return {
    stored,
    idFromName: (name: string) => name,
    get(name: string) {
      if (!objects.has(name)) {
        stored.set(name, memory());
        objects.set(name, new WitnessLog({ storage: stored.get(name)! }));
      }
      const object = objects.get(name)!;
      return { fetch: (request: Request) => object.fetch(request) };
    },
  };
}

describe("the Cloudflare witness's store", () => {
  it("keeps one of many steps from one record, and runs the others again on the record kept", async () => {
    const many = 8;
    const logs = namespace();
    const store = durableWitnessStore(logs);
    await store.update("example.com/log", async () => ({ next: record(10), result: "first" }));
    const racing = durableWitnessStore(raced(logs, many));
    const seen: number[][] = Array.from({ length: many }, () => []);
    const results = await Promise.all(
      Array.from({ length: many }, (_, i) =>
        racing.update("example.com/log", async (latest) => {
          seen[i]!.push(latest!.size);
          return latest!.size === 10
            ? { next: record(11 + i), result: `kept ${11 + i}` }
            : { result: `conflict ${latest!.size}` };
        }),
      ),
    );
    const kept = results.filter((result) => result.startsWith("kept"));
    assert.equal(kept.length, 1, JSON.stringify(results));
    const size = Number(kept[0]!.slice("kept ".length));
    assert.deepEqual(
      results.filter((result) => !result.startsWith("kept")),
      Array.from({ length: many - 1 }, () => `conflict ${size}`),
    );
    assert.deepEqual(
      seen.map((sizes) => sizes[0]),
      Array.from({ length: many }, () => 10),
      "every step saw the same record first",
    );
    assert.equal((await store.latest("example.com/log"))?.size, size);
  });

  it("keeps each log in an object of its own", async () => {
    const logs = namespace();
    const store = durableWitnessStore(logs);
    await store.update("example.com/a", async () => ({ next: record(3), result: undefined }));
    assert.equal(await store.latest("example.com/b"), undefined);
    assert.deepEqual([...logs.stored.keys()], ["example.com/a", "example.com/b"]);
  });

  it("refuses a swap that is no record, or one smaller than the record held", async () => {
    const object = new WitnessLog({ storage: memory() });
    const swap = (body: unknown) =>
      object.fetch(new Request("https://witness-log.internal/record", { method: "POST", body: JSON.stringify(body) }));
    assert.equal((await swap({ expected: null, next: "{}" })).status, 400);
    assert.equal((await swap({ expected: 1, next: encodeCosigned(record(4)) })).status, 400);
    assert.deepEqual(await (await swap({ expected: null, next: encodeCosigned(record(4)) })).json(), {
      record: encodeCosigned(record(4)),
      swapped: true,
    });
    await assert.rejects(swap({ expected: encodeCosigned(record(4)), next: encodeCosigned(record(3)) }), RangeError);
  });

  it("never takes a stored value that is not a record for no record", async () => {
    const storage = memory();
    await storage.put("latest", "not json");
    const object = new WitnessLog({ storage });
    await assert.rejects(object.fetch(new Request("https://witness-log.internal/record")));
  });
});

function memory() {
  const values = new Map<string, unknown>();
  return {
    get: async (key: string) => values.get(key),
    put: async (key: string, value: string) => void values.set(key, value),
  };
}

/** `logs`' objects, their first `readers` reads held until all were answered: every step starts from one record. */
function raced(logs: ReturnType<typeof namespace>, readers: number) {
  let waiting: (() => void)[] = [];
  let holding = readers;
  return {
    idFromName: logs.idFromName,
    get: (name: string) => ({
      async fetch(request: Request) {
        const answer = await logs.get(name).fetch(request);
        if (request.method === "GET" && holding > 0)
          await new Promise<void>((release) => {
            waiting.push(release);
            if (waiting.length === holding) {
              for (const go of waiting) go();
              waiting = [];
              holding = 0;
            }
          });
        return answer;
      },
    }),
  };
}
