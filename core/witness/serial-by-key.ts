/**
 * Work run one at a time per key: a witness checks a log's latest cosigned size and
 * stores the next in one step, so two requests for one log never interleave (C2SP
 * tlog-witness's race, where a slower request rolls the log back). Requests for other
 * logs run meanwhile. In one process, or one Durable Object: across processes the store
 * itself must be held by one (the Node server's state folder lock).
 */
export class SerialByKey {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier call for `key` has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // The map holds only keys with work pending: a witness of many rarely active logs keeps none of them.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once all work given so far has settled, whatever its outcome. */
  async settled(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
