/**
 * Runs the Netlify edge function under Deno, the runtime Netlify uses, with a stand-in
 * for Netlify's static layer behind `context.next`. Like Netlify it matches paths
 * case-insensitively and answers with its own ETag, Cache-Control and 304s, so tests see
 * whether the function survives all three.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=DIST tests/runtimes/netlify-deno.ts DIST [FUNCTION]
 *
 * FUNCTION, an absolute path, is the edge function to run instead of this repository's
 * adapter: a publisher's, which re-exports the installed package's.
 */
import adapter from "../../edge/adapters/netlify/resolver.ts";

const [dist, functionFile] = Deno.args;
if (dist === undefined) throw new Error("usage: netlify-deno.ts DIST [FUNCTION]");
const resolver: typeof adapter =
  functionFile === undefined ? adapter : (await import(`file://${functionFile}`)).default;

/** Every file of the publish directory, keyed by its lower-cased path. First one wins. */
const files = new Map<string, string>();
async function index(dir: string, prefix: string): Promise<void> {
  const entries = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = prefix + entry.name;
    if (entry.isDirectory) await index(`${dir}/${entry.name}`, `${path}/`);
    else if (!files.has(path.toLowerCase())) files.set(path.toLowerCase(), path);
  }
}
await index(dist, "");

async function staticLayer(request: Request): Promise<Response> {
  const path = files.get(decodeURIComponent(new URL(request.url).pathname.slice(1)).toLowerCase());
  if (path === undefined) return new Response("Not Found", { status: 404, headers: { "x-static-layer": "404" } });
  const bytes = await Deno.readFile(`${dist}/${path}`);
  const etag = `"static-${bytes.byteLength}"`;
  const headers = { etag, "cache-control": "public, max-age=0, must-revalidate", "x-static-layer": "hit" };
  // Any conditional header that leaks through gets a 304 with no body, which must not reach a client.
  if (request.headers.has("if-none-match")) return new Response(null, { status: 304, headers });
  return new Response(bytes, { headers: { ...headers, "content-type": "application/octet-stream" } });
}

Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`http://127.0.0.1:${port}`) },
  (request) => resolver(request, { next: staticLayer }),
);
