/**
 * The build info, `resolver.json`: what the output holds (its index's format, how many
 * manifests, redirects and revocations) and the digest of its state in the build's store
 * (output-state.ts). It also marks a folder as build output, which a build may replace.
 * It is made last, once every other index file's state is known.
 */
import { utf8 } from "../../core/base64url.ts";
import { BUILD_INFO_PATH, INDEX_FORMAT } from "../../edge/records.ts";
import { isSha256Hex } from "../store/blob-store.ts";
import { parsedJson } from "../store/kept-state.ts";
import type { OutputFile } from "./output-file.ts";

/** What the output answers for. */
export interface Counts {
  manifests: number;
  redirects: number;
  revoked: number;
}

/** The build info of an output holding `counts`, whose state has the SHA-256 `state` (lowercase hex). */
export function buildInfo(counts: Counts, state: string): OutputFile {
  const info = { format: INDEX_FORMAT, ...counts, state };
  return { path: BUILD_INFO_PATH, bytes: utf8(`${JSON.stringify(info, null, 2)}\n`) };
}

/** The digest of the state a build info names; undefined when it names none in this index format. */
export function stateNamedBy(bytes: Uint8Array): string | undefined {
  const { format, state } = (parsedJson(bytes) ?? {}) as { format?: unknown; state?: unknown };
  return format === INDEX_FORMAT && isSha256Hex(state) ? state : undefined;
}
