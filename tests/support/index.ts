/** Every record of a built output's sharded index, read back for assertions. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
/** A record entry with every member optional, for terse assertions. */
export type AnyRecord = {
  file?: string;
  etag?: string;
  redirect?: string;
  revoked?: true;
  status?: { status: string; updatedAt: string; reason?: string; nextCheck: string; etag?: string };
};

export function readRecords(dist: string): Record<string, AnyRecord> {
  const dir = join(dist, "index");
  if (!existsSync(dir)) return {};
  return Object.assign(
    {},
    ...readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), "utf8")).records),
  );
}
