/**
 * The lookup page served from memory on its own port, so it is another origin than the resolver. Under `dev`, it also
 * tells the page when the output was built again (`reloads`), and the page asks its question again.
 */
import { createServer, type ServerResponse, type Server } from "node:http";
import type { OutputFile } from "../plan/output-file.ts";

const TYPES: Record<string, string> = { html: "text/html; charset=utf-8", js: "text/javascript; charset=utf-8" };

/** Where the page listens for rebuilds (server-sent events), and the script that does. */
const RELOAD_EVENTS = "/_dev/reload";
const RELOAD_SCRIPT = "_dev/reload.js";

/** Whom the page's server tells of each rebuild: `built()` reloads every page open. */
export class PageReloads {
  readonly #listeners = new Set<ServerResponse>();

  built(): void {
    for (const response of this.#listeners) response.write("event: built\ndata: \n\n");
  }

  listen(response: ServerResponse): void {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    response.write(": listening\n\n");
    this.#listeners.add(response);
    response.on("close", () => this.#listeners.delete(response));
  }
}

export async function serveLookupPage(
  files: OutputFile[],
  host: string,
  port: number,
  reloads?: PageReloads,
): Promise<{ server: Server }> {
  const byPath = new Map((reloads === undefined ? files : withReloads(files)).map((f) => [`/${f.path}`, f]));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (reloads !== undefined && path === RELOAD_EVENTS && req.method === "GET") return reloads.listen(res);
    const file = byPath.get(path === "/" ? "/index.html" : path);
    if (file === undefined || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found\n");
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[file.path.split(".").pop()!]!,
      "Content-Length": file.bytes.byteLength,
      "Cache-Control": "no-cache",
      // The page may ask any resolver, and nothing else.
      "Content-Security-Policy": "default-src 'self'; connect-src *; style-src 'self' 'unsafe-inline'; img-src data:",
      "X-Content-Type-Options": "nosniff",
    });
    res.end(req.method === "HEAD" ? undefined : file.bytes);
  });
  await new Promise<void>((listening, reject) => {
    server.once("error", reject);
    server.listen(port, host, listening);
  });
  return { server };
}

/**
 * The page's files with the script that reloads it at each rebuild: a file of its own, as the page's policy runs no
 * inline script. The page keeps its question in its address, so a reload asks it again.
 */
function withReloads(files: OutputFile[]): OutputFile[] {
  const script = new TextEncoder().encode(
    `new EventSource("${RELOAD_EVENTS}").addEventListener("built", () => location.reload());\n`,
  );
  return [
    ...files.map((file) =>
      file.path === "index.html"
        ? {
            ...file,
            bytes: new TextEncoder().encode(
              new TextDecoder()
                .decode(file.bytes)
                .replace("</head>", `<script type="module" src="./${RELOAD_SCRIPT}"></script>\n</head>`),
            ),
          }
        : file,
    ),
    { path: RELOAD_SCRIPT, bytes: script },
  ];
}
