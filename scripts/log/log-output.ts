/**
 * What a build publishes of the content's transparency log (issue 26, section 4): when `content/_log/` holds a log
 * that opens (its checkpoint verifies, its tiles audit), its published files (published-log.ts), named as the output
 * stores them for the edge (edge/log-files.ts). A log that does not open is the gate's to refuse (log-gate.ts): none
 * of it is served. The tiles are read once here; nothing is done per manifest.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { storedLogFile } from "../../edge/log-files.ts";
import type { OutputFile } from "../plan/output-file.ts";
import { LOG_FOLDER, openLog } from "./log-folder.ts";
import { publishedLog } from "./published-log.ts";

export async function logOutputFiles(contentDir: string): Promise<OutputFile[]> {
  const logDir = join(contentDir, LOG_FOLDER);
  if (!existsSync(logDir)) return [];
  const opened = await openLog(logDir);
  if (!opened.ok) return [];
  return Array.from(await publishedLog(logDir, opened), ([path, bytes]) => ({ path: storedLogFile(path), bytes }));
}
