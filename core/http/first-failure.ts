/**
 * The first failure of a store a resolution uses (the HTTP cache, the memory), kept in words to report once: a
 * store's failure costs time or a memory, never a verdict, and is said rather than thrown.
 */
export class FirstFailure {
  #message: string | undefined;

  get message(): string | undefined {
    return this.#message;
  }

  /** Keeps `message` unless a failure came first. */
  note(message: string): void {
    this.#message ??= message;
  }

  /** What `run` gives, or `fallback` when it throws; the error, after `what` in words, is noted. */
  async guard<T>(what: string, fallback: T, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.note(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    }
  }
}
