/**
 * Node: the same handler behind `node:http`, reading the build output from disk. Used by
 * `manifest-resolver serve`; production hosts use the Netlify or Cloudflare adapter.
 */
import { watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, join, resolve } from "node:path";
import { answer, type ResolverRequest } from "../handler.ts";
import type { HomePageOptions } from "../home-page.ts";
import type { Answer } from "../responses.ts";
import { StaticRecords, type AssetReader } from "../static-records.ts";

export interface NodeServerOptions {
  dist: string;
  port: number;
  host: string;
  /**
   * What the resolver's own address links to, read at each request: `serve` learns the lookup page's address once
   * that page listens, after the resolver, whose address it asks.
   */
  home?: HomePageOptions;
}

export interface RunningServer {
  url: string;
  server: Server;
}

export function directoryReader(dir: string): AssetReader {
  return async (path) => {
    try {
      return new Uint8Array(await readFile(join(dir, path)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  };
}

export async function serveNode({ dist, port, host, home = {} }: NodeServerOptions): Promise<RunningServer> {
  const read = directoryReader(dist);
  let records = new StaticRecords().reading(read);
  // Unlike a deploy, a local output directory changes: \`build\` swaps a new one in by
  // renaming it, or updates it in place through a folder beside it (\`.NAME.in-place\`,
  // removed once done): a change of either name in its parent starts a fresh record store.
  const target = resolve(dist);
  const watcher = watch(dirname(target), (_event, name) => {
    if (name === basename(target) || name?.startsWith(`.${basename(target)}.`))
      records = new StaticRecords().reading(read);
  });
  const server = createServer(async (req, res) => {
    try {
      send(await answer(toRequest(req), records, home), res);
    } catch (error) {
      console.error(error);
      res.destroy();
    }
  });
  server.on("close", () => watcher.close());
  await new Promise<void>((listening, reject) => {
    server.once("error", (error) => {
      watcher.close();
      reject(error);
    });
    server.listen(port, host, listening);
  });
  return { url: listeningUrl(server, host), server };
}

/** The URL of a listening server, with the host it was asked to listen on. */
export function listeningUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * The request as the handler reads it, without building a Fetch Request (the costliest
 * part of a request here): Node has already parsed the headers, and joins repeated ones.
 */
function toRequest(req: IncomingMessage): ResolverRequest {
  // The target is appended to a fixed origin rather than resolved against it: a target
  // such as `//x` would otherwise be read as a host name. The handler reads only the path.
  const target = req.url?.startsWith("/") ? req.url : `/${req.url ?? ""}`;
  return {
    method: req.method ?? "GET",
    url: `http://localhost${target}`,
    headers: {
      get: (name) => {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
  };
}

function send({ status, headers, body }: Answer, res: ServerResponse): void {
  // writeHead takes names and values in one flat list. (Array.prototype.flat is several
  // times slower than this loop, and it runs on every request.)
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  // Without a length, Node would frame an empty body as chunked; 204 and 304 carry none.
  const bodiless = status === 204 || status === 304;
  if (body === null && !bodiless && !headers.some(([name]) => name === "Content-Length"))
    flat.push("Content-Length", "0");
  res.writeHead(status, flat);
  res.end(body ?? undefined);
}
