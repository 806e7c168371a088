/**
 * A UMID no resolver can be asked for is refused before any request: an empty one (its
 * path would be `/`, the contract's "missing UMID"), and, in the library, one with a lone
 * surrogate (no UTF-8 path carries it: direct mode would throw a URIError, b64u: would ask
 * for U+FFFD instead). The library throws TypeError, as for any other bad argument; the
 * CLI's resolve and probe exit 2, as revoke and the other edits do.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { after, before, describe, it } from "node:test";
import { resolve } from "../core/client/index.ts";
import { assertUsageError } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";

let requests = 0;
const server = createServer((_req, res) => {
  requests++;
  res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
});
let base = "";
before(async () => {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

describe("a UMID no resolver can be asked for", () => {
  it("resolve(): a TypeError naming the umid, and no request", async () => {
    for (const umid of ["", "urn:x:\ud800", "\udc00"]) {
      await assert.rejects(resolve(base, umid, { offline: true }), (error: Error) => {
        assert.ok(error instanceof TypeError, String(error));
        assert.match(error.message, /^umid /);
        return true;
      });
    }
    assert.equal(requests, 0);
  });

  it("manifest-resolver resolve and probe: a usage error naming UMID, exit 2, and no request", async () => {
    assertUsageError(await runCliInProcess(["resolve", base, "", "--offline"], tmpdir()), "UMID");
    assertUsageError(await runCliInProcess(["probe", base, "urn:x:1", ""], tmpdir()), "UMID");
    assert.equal(requests, 0);
  });
});
