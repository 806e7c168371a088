/**
 * The known answers for the transparency log (`../shared/vectors/tlog/vectors.json`,
 * computed with Go's golang.org/x/mod/sumdb/tlog and sumdb/note), decoded, and the tree
 * of all their entries held in memory.
 */
import { readFileSync } from "node:fs";
import { decodeBase64 } from "../../core/base64url.ts";
import { type Hash, leafHash } from "../../core/tlog/merkle.ts";
import { TreeHashes } from "../../core/tlog/tree-hashes.ts";
import { sharedPath, skipWithoutShared } from "./shared.ts";

interface RawVectors {
  emptyTreeRoot: string;
  entries: string[];
  leafHashesOfFirstThree: string[];
  roots: Record<string, string>;
  inclusionProofs: { index: number; treeSize: number; proof: string[] }[];
  consistencyProofs: { oldSize: number; newSize: number; proof: string[] }[];
  tilesOfTreeSize300: Record<string, string>;
  note: {
    checkpointOfTreeSize300: string;
    ed25519SeedHex: string;
    origin: string;
    signerKey: string;
    verifierKey: string;
  };
}

const VECTORS = "vectors/tlog/vectors.json";
export const skipWithoutVectors = skipWithoutShared(VECTORS);

export const base64 = (text: string): Hash => decodeBase64(text)!;

function loadVectors() {
  const raw: RawVectors = JSON.parse(readFileSync(sharedPath(VECTORS), "utf8"));
  const entries = raw.entries.map((entry) => new TextEncoder().encode(entry));
  return {
    ...raw,
    entries,
    /** All the entries, hashed as leaves and held in memory. */
    tree: new TreeHashes(entries.map(leafHash)),
    roots: new Map(Object.entries(raw.roots).map(([size, root]) => [Number(size), base64(root)])),
    tiles: new Map(Object.entries(raw.tilesOfTreeSize300).map(([path, bytes]) => [path, base64(bytes)])),
  };
}

/** The vectors, or undefined (the tests then skip, saying why) when ../shared is absent. */
export const vectors = skipWithoutVectors ? undefined : loadVectors();
