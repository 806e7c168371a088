/**
 * `items.map(fn)` with at most `limit` calls in flight, results in input order. File work
 * needs the bound: a registry of thousands of files read at once exhausts the process's
 * file descriptors (1,024 by default on Linux and macOS).
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** How many files to read or write at once. */
export const FILE_CONCURRENCY = 64;
