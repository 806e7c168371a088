/**
 * A proxy in front of a resolver, for tests: it answers a path itself when `own` has an answer for it (a body of its
 * own behind fresh headers), and otherwise asks the server `upstreamOf(path)` names (the resolver, or a log server
 * serving another log than the resolver's) the same GET (If-None-Match passed on, redirects not followed) and hands
 * back its answer through `rewrite`, which may change anything: a party on the path.
 */
import { createServer } from "node:http";

export interface ProxyAnswer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

export interface StartedProxy {
  url: string;
  close(): Promise<void>;
}

/** Headers of the resolver's answer that describe its connection or encoding, not the answer: never passed on. */
const HOP_HEADERS = ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"];

/** Starts the proxy on `port` of 127.0.0.1, before the servers `upstreamOf` names by path (their origins). */
export async function startProxy(
  port: number,
  upstreamOf: (path: string) => string,
  own: (path: string) => ProxyAnswer | undefined = () => undefined,
  rewrite: (path: string, answer: ProxyAnswer) => void = () => {},
): Promise<StartedProxy> {
  const answer = async (path: string, ifNoneMatch: string | undefined): Promise<ProxyAnswer> => {
    const mine = own(path);
    if (mine !== undefined) return mine;
    const response = await fetch(upstreamOf(path) + path, {
      redirect: "manual",
      headers: ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch },
    });
    const headers = new Headers(response.headers);
    for (const name of HOP_HEADERS) headers.delete(name);
    const answered = { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
    rewrite(path, answered);
    return answered;
  };
  const server = createServer((request, response) => {
    const ifNoneMatch = request.headers["if-none-match"];
    answer(request.url!, typeof ifNoneMatch === "string" ? ifNoneMatch : undefined).then(
      ({ status, headers, body }) => response.writeHead(status, Object.fromEntries(headers)).end(body),
      (error: Error) => response.writeHead(502).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
