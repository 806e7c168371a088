/**
 * What a build publishes of the content's transparency log (issue 26, section 4): when the content keeps a log that
 * opens (its checkpoint verifies, its tiles audit: log-folder.ts, openContentLog), its published files
 * (published-log.ts), named as the output stores them for the edge (edge/log-files.ts). A log that does not open is
 * the gate's to refuse (log-gate.ts): none of it is served. The tiles are read once here; nothing is done per
 * manifest.
 */
import { storedLogFile } from "../../edge/log-files.ts";
import type { OutputFile } from "../plan/output-file.ts";
import type { ContentLog } from "./log-folder.ts";
import { publishedLog } from "./published-log.ts";

export async function logOutputFiles(log: ContentLog | undefined): Promise<OutputFile[]> {
  if (log === undefined || !log.opened.ok) return [];
  return Array.from(await publishedLog(log.dir, log.opened), ([path, bytes]) => ({ path: storedLogFile(path), bytes }));
}
