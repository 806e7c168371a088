/**
 * Appends `items` to `target`, however many there are. `target.push(...items)` passes each
 * item as an argument, and past about 120,000 of them the call overflows the stack: a
 * content folder of a million manifests crashed `check` that way.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
