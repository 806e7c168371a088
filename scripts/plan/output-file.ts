/**
 * One file of a planned output: its path from the output's root, and its bytes. A file
 * made from many inputs (an index shard) also has `inputs`, the digest of all it is made
 * from; then `bytes` is made when first read, so a warm build whose previous output has the
 * same inputs there makes none of it (plan/output-state.ts).
 */
export interface OutputFile {
  path: string;
  readonly bytes: Uint8Array;
  inputs?: string;
}
