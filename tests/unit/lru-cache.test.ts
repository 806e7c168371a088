import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { LruCache } from "../../core/lru-cache.ts";

const keysOf = (cache: LruCache<number>, upTo: number) =>
  Array.from({ length: upTo }, (_, i) => `k${i}`).filter((key) => cache.get(key) !== undefined);

describe("LruCache", () => {
  it("evicts the oldest entries once the sizes pass the bound, and keeps none larger than it", () => {
    const cache = new LruCache<number>(10);
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, i, 2);
    assert.deepEqual(keysOf(cache, 8), ["k3", "k4", "k5", "k6", "k7"]);
    cache.set("huge", 0, 11);
    assert.equal(cache.get("huge"), undefined);
  });

  it("never evicts an entry read at least once per half of its capacity", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.integer({ min: 1, max: 500 }), (capacity, inserts) => {
        const cache = new LruCache<number>(capacity);
        cache.set("hot", -1, 1);
        for (let i = 0; i < inserts; i++) {
          if (i % Math.max(1, Math.floor((capacity - 1) / 2)) === 0)
            assert.equal(cache.get("hot"), -1, `lost after ${i} inserts`);
          cache.set(`k${i}`, i, 1);
        }
        assert.equal(cache.get("hot"), -1);
      }),
    );
  });

  it("evicts an entry that is never read, after capacity newer ones", () => {
    const cache = new LruCache<number>(4);
    cache.set("cold", 0, 1);
    for (let i = 0; i < 3; i++) cache.set(`k${i}`, i, 1);
    assert.equal(cache.get("cold"), 0);
    for (let i = 3; i < 7; i++) cache.set(`k${i}`, i, 1);
    assert.equal(cache.get("cold"), undefined);
  });

  it("resizes and deletes a key only while it holds the given value", () => {
    const cache = new LruCache<number>(10);
    cache.set("a", 1, 0);
    cache.resize("a", 2, 100);
    cache.delete("a", 2);
    assert.equal(cache.get("a"), 1);
    cache.resize("a", 1, 100);
    assert.equal(cache.get("a"), undefined, "a size over the bound drops the entry");
    cache.set("b", 1, 5);
    cache.delete("b", 1);
    assert.equal(cache.get("b"), undefined);
  });
});
