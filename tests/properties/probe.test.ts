/**
 * `probe` against a resolver whose answers are damaged (issue 37, defect 10): a resolver that answers, however
 * wrongly, fails checks with what is wrong; it is never reported unreachable (which stops the checks after it), and
 * probe never throws.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { umidPath } from "../../core/umid-path.ts";
import { etagOf } from "../../edge/etag.ts";
import { handleRequest } from "../../edge/handler.ts";
import { INDEX_FORMAT, shardPath } from "../../edge/records.ts";
import { statusDocumentBytes } from "../../edge/responses.ts";
import { StaticRecords } from "../../edge/static-records.ts";
import { probe } from "../../scripts/probe.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { documentText, excerpt, holds } from "../support/properties.ts";

const UMID = "urn:property:probed";
const status = { status: "active" as const, updatedAt: "2026-01-01T00:00:00.000Z", nextCheck: "PT10M" };
const body = new TextEncoder().encode(JSON.stringify(signed(manifestFor(UMID), newKey()))) as Uint8Array<ArrayBuffer>;
const files = new Map<string, Uint8Array<ArrayBuffer>>([
  ["m.json", body],
  [
    shardPath(UMID),
    new TextEncoder().encode(
      JSON.stringify({
        format: INDEX_FORMAT,
        records: {
          [UMID]: {
            file: "m.json",
            etag: await etagOf(body),
            status: { ...status, etag: await etagOf(statusDocumentBytes(UMID, status)) },
          },
        },
      }),
    ) as Uint8Array<ArrayBuffer>,
  ],
]);
const store = new StaticRecords().reading(async (path) => files.get(path));

/** The damage of the current run: the answer to paths starting so gets this body instead. */
let damage: { prefix: string; body: string } | undefined;
let base = "";
const server = createServer(async (request, response) => {
  const headers = new Headers(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  const answer = await handleRequest({ method: request.method!, url: base + request.url, headers }, store);
  const damaged = damage !== undefined && request.url!.startsWith(damage.prefix);
  const bytes = damaged ? Buffer.from(damage!.body) : Buffer.from(await answer.arrayBuffer());
  const out = Object.fromEntries(answer.headers);
  if (damaged) out["content-length"] = String(bytes.length);
  response.writeHead(answer.status, out).end(request.method === "HEAD" ? undefined : bytes);
});
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function probed(): Promise<{ check: string; failure?: string; unreachable?: true }[]> {
  const results = [];
  for await (const result of probe(base, [UMID])) results.push(result);
  return results;
}

describe("properties: probe over damaged answers", () => {
  it("fails checks with what is wrong, never reports an answering resolver unreachable", async () => {
    damage = undefined;
    assert.deepEqual(
      (await probed()).filter((r) => r.failure !== undefined),
      [],
    );
    const honest = new Map<string, unknown>([
      ["/health", { status: "ok" }],
      ["/.well-known/manifest-resolver.json", { contract: "x", endpoints: { health: "/health" } }],
      [umidPath(UMID), JSON.parse(new TextDecoder().decode(body))],
      ["/.well-known/manifest-resolver/status/", { manifestId: UMID, ...status }],
    ]);
    const damaged = fc
      .constantFrom(...honest.keys())
      .chain((prefix) => documentText(honest.get(prefix)).map((text) => ({ prefix, body: text })));
    await holds(
      "probe",
      fc.asyncProperty(damaged, async (d) => {
        damage = d;
        const unreachable = (await probed()).filter((r) => r.unreachable);
        assert.deepEqual(unreachable, [], `${d.prefix} answering ${excerpt(d.body)}`);
      }),
      25,
    );
  });
});
