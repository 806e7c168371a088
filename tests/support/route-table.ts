/** The route table a build wrote (edge/route-table.ts), read whole from its output: every row with its document. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROUTES_FOLDER, ROUTES_FORMAT, type RouteRow } from "../../edge/route-table.ts";

export interface RoutedFile {
  row: RouteRow;
  bytes: Buffer;
}

/** Every routed document of the output `dir`, by request path, in path order. */
export function routedIn(dir: string): Map<string, RoutedFile> {
  const folder = join(dir, ROUTES_FOLDER);
  const rows: [string, RouteRow][] = [];
  for (const name of existsSync(folder) ? readdirSync(folder).sort() : []) {
    const shard = JSON.parse(readFileSync(join(folder, name), "utf8")) as { format: number; routes: object };
    if (shard.format !== ROUTES_FORMAT) throw new Error(`${name} has format ${shard.format}`);
    rows.push(...(Object.entries(shard.routes) as [string, RouteRow][]));
  }
  rows.sort(([a], [b]) => (a < b ? -1 : 1));
  return new Map(rows.map(([path, row]) => [path, { row, bytes: readFileSync(join(dir, row.stored)) }]));
}
