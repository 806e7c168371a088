/** The lookup page served from memory on its own port, so it is another origin than the resolver. */
import { createServer, type Server } from "node:http";
import type { OutputFile } from "../plan/output-file.ts";

const TYPES: Record<string, string> = { html: "text/html; charset=utf-8", js: "text/javascript; charset=utf-8" };

export async function serveLookupPage(files: OutputFile[], host: string, port: number): Promise<{ server: Server }> {
  const byPath = new Map(files.map((f) => [`/${f.path}`, f]));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
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
