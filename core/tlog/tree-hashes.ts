/**
 * The hashes of a growing tree: the first `baseSize` entries read from a base (the tiles a
 * log already serves), the appended ones computed from their leaf hashes. This is how a
 * log appends without rehashing its history; with no base it is a tree held in memory,
 * hashed level by level up front: an audit reads every subtree hash, and a loop over
 * arrays costs a fraction of memoized recursion.
 */
import { type Hash, type HashReader, nodeHash } from "./merkle.ts";

export class TreeHashes implements HashReader {
  /** Computed subtree hashes, by `level/index`. */
  private readonly computed = new Map<string, Hash>();
  /** With no base: every complete subtree's hash, by level then index. */
  private readonly levels: Hash[][] = [];

  constructor(
    private readonly appended: readonly Hash[],
    private readonly base?: HashReader,
    private readonly baseSize = 0,
  ) {
    if (base !== undefined) return;
    for (let level = appended; level.length > 0; ) {
      this.levels.push(level as Hash[]);
      const up: Hash[] = [];
      for (let i = 0; i + 1 < level.length; i += 2) up.push(nodeHash(level[i]!, level[i + 1]!));
      level = up;
    }
  }

  get size(): number {
    return this.baseSize + this.appended.length;
  }

  async subtreeHash(level: number, index: number): Promise<Hash> {
    const start = index * 2 ** level;
    const end = start + 2 ** level;
    if (end > this.size) throw new RangeError(`no complete subtree at level ${level}, index ${index}`);
    if (this.base === undefined) return this.levels[level]![index]!;
    if (end <= this.baseSize) return this.base!.subtreeHash(level, index);
    if (level === 0) return this.appended[start - this.baseSize]!;
    const key = `${level}/${index}`;
    const known = this.computed.get(key);
    if (known !== undefined) return known;
    const hash = nodeHash(
      await this.subtreeHash(level - 1, 2 * index),
      await this.subtreeHash(level - 1, 2 * index + 1),
    );
    this.computed.set(key, hash);
    return hash;
  }
}
