/** One file of a planned output: its path from the output's root, and its bytes. */
export interface OutputFile {
  path: string;
  bytes: Uint8Array;
}
