/**
 * A resolver's transparency log, served for tests: a node:http server answering
 * `/.well-known/manifest-resolver/log/<path>` with the files it holds (404 for others), as
 * the build publishes them (publishedLog). Its files can be replaced or edited between
 * requests: another view of the log, a tampered tile, a bucket that lies. A body is sent in chunks, each once the
 * client took the last, and no more once it hangs up: the bytes counted served are about those a client read.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import { openLog } from "../../scripts/log/log-folder.ts";
import { publishedLog } from "../../scripts/log/published-log.ts";

export interface LogServer {
  /** The resolver's base URL: the log is at `${url}/.well-known/manifest-resolver/log/`. */
  url: string;
  /** What it serves, by path under the log's prefix: change it at will. */
  files: Map<string, Uint8Array>;
  /** How many bytes of bodies it has sent. */
  bytesServed: number;
  stop(): Promise<void>;
}

/** What the build publishes of the verified log in `logDir` (content/_log/); throws if it does not verify. */
export async function publishedLogFiles(logDir: string): Promise<Map<string, Uint8Array>> {
  const opened = await openLog(logDir);
  if (!opened.ok) throw new Error(`${logDir}/${opened.file}: ${opened.reason}`);
  return publishedLog(logDir, opened);
}

const CHUNK = 64 * 1024;

export async function serveLogFiles(files: Map<string, Uint8Array>): Promise<LogServer> {
  const served: LogServer = { url: "", files, bytesServed: 0, stop: async () => {} };
  const server = createServer(async (request, response) => {
    const path = (request.url ?? "").startsWith(`${LOG_PREFIX}/`) ? request.url!.slice(LOG_PREFIX.length + 1) : "";
    const body = served.files.get(path);
    if (request.method !== "GET" || body === undefined) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    for (let at = 0; at < body.length && !response.destroyed; at += CHUNK) {
      const chunk = body.subarray(at, at + CHUNK);
      served.bytesServed += chunk.length;
      if (!response.write(chunk))
        await new Promise((resolve) => response.once("drain", resolve).once("close", resolve));
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.stop = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return served;
}
