/**
 * The witness's web handler (core/witness/witness-handler.ts) behind node:http. A request
 * becomes a Fetch Request whose body streams from the socket (the handler stops reading
 * past its limit), and the Response is written back. Connections are kept alive between a
 * log's requests, as C2SP tlog-witness asks, and every phase of a request is bounded: a
 * client that sends slowly cannot hold a connection. A handler that throws (a damaged
 * record, a disk that refuses a write) answers 500 and is logged: no cosignature comes of it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { listeningUrl } from "../../edge/adapters/node.ts";
import type { WitnessEvent } from "../../core/witness/witness-handler.ts";

/** Longer than the minute a log's client may wait between checkpoints, and than common proxies' 60 s. */
const KEEP_ALIVE_MS = 65_000;
/** The headers of a request must arrive within this, and the whole request within REQUEST_MS. */
const HEADERS_MS = 20_000;
const REQUEST_MS = 30_000;
/** How long a stop waits for requests in flight before it closes their connections. */
const STOP_MS = 10_000;

/** A request body that never arrived whole. */
class CutShort extends Error {}

export interface WitnessServer {
  url: string;
  server: Server;
  /** Stops accepting, answers the requests in flight (for up to STOP_MS), each connection's last, then resolves. */
  stop(): Promise<void>;
}

export async function listenWitness(options: {
  handler: (request: Request) => Promise<Response>;
  host: string;
  port: number;
  /** Called for a request the handler could not answer: it does not log those itself. */
  failed: (event: WitnessEvent) => void;
}): Promise<WitnessServer> {
  const { handler, host, port, failed } = options;
  let stopping = false;
  const server = createServer(
    { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: HEADERS_MS, requestTimeout: REQUEST_MS },
    async (req, res) => {
      const started = performance.now();
      let response: Response;
      try {
        response = await handler(toRequest(req));
      } catch (error) {
        failed({
          method: req.method ?? "",
          path: (req.url ?? "").split("?")[0]!,
          // The client's doing (it is gone, and reads no answer), or the witness's, which its operator must see.
          status: error instanceof CutShort ? 400 : 500,
          ms: performance.now() - started,
          reason: (error as Error).message,
        });
        response = new Response("the witness cannot answer: its state is unreadable or unwritable\n", {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8" },
        });
      }
      // Nothing a client does may end the process: an answer that cannot be sent ends its connection alone.
      await send(response, req, res, stopping).catch(() => res.destroy());
    },
  );
  await new Promise<void>((listening, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      listening();
    });
  });
  return {
    url: listeningUrl(server, host),
    server,
    stop: () =>
      new Promise<void>((stopped) => {
        stopping = true;
        const force = setTimeout(() => server.closeAllConnections(), STOP_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          stopped();
        });
        server.closeIdleConnections();
      }),
  };
}

/**
 * The request as a Fetch Request. Its target is appended to a fixed origin, never resolved against it (`//x` would
 * name a host); the handler reads only the path. The body is pulled from the socket as the handler reads it, a chunk
 * ahead at most: one the handler stops reading (over its limit) is not held, and the rest is drained once answered.
 */
function toRequest(req: IncomingMessage): Request {
  const target = req.url?.startsWith("/") ? req.url : `/${req.url ?? ""}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(`http://witness${target}`, { method, headers });
  req.pause();
  let settled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Each ends the stream once: the body read whole, the handler's cancel, or the connection lost before the end.
      const settle = (end: () => void) => {
        if (settled) return;
        settled = true;
        end();
      };
      req.on("data", (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => settle(() => controller.close()));
      req.once("error", (error) =>
        settle(() => controller.error(new CutShort(`the body was cut short: ${error.message}`))),
      );
      req.once("close", () =>
        settle(() => controller.error(new CutShort("the connection closed before the body's end"))),
      );
    },
    pull() {
      req.resume();
    },
    cancel() {
      settled = true;
      drain(req);
    },
  });
  // Node's fetch needs `duplex` for a streamed body; the DOM types do not know it.
  return new Request(`http://witness${target}`, { method, headers, body, duplex: "half" } as RequestInit);
}

/** Writes `response`; `last`: the server is stopping, and the connection ends with this answer. */
async function send(response: Response, req: IncomingMessage, res: ServerResponse, last: boolean): Promise<void> {
  const body = req.method === "HEAD" ? undefined : new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  if (body !== undefined) headers["content-length"] = String(body.length);
  if (last) headers.connection = "close";
  res.writeHead(response.status, headers);
  res.end(body);
  // A body not read whole (refused for its size) is read to its end and dropped, so that the connection can carry
  // the next request; requestTimeout bounds how long that may take.
  if (!req.readableEnded) drain(req);
}

function drain(req: IncomingMessage): void {
  req.removeAllListeners("data");
  req.resume();
}
