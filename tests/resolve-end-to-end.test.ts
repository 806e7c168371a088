/**
 * Both ends of status (issue 11, "Done means"): content with active, suspended, revoked
 * and redirected UMIDs whose manifests carry statusRefs at a locally served build, built
 * and served by our own commands, then `resolve` over every case as a relying party runs
 * it: a status endpoint that is down, a cached manifest resolved again after its
 * expiresAt, and redirects to another server, whose manifest carries the UMID asked for
 * or another @id.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { canonicalize } from "../core/crypto/jcs.ts";
import { statusPath } from "../core/umid-path.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";
import { assertLineNames } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-resolve-e2e-"));
const content = join(scratch, "content");
const dist = join(scratch, "dist");
const key = newKey();

const UMID = {
  active: "urn:e2e:active",
  suspended: "urn:e2e:suspended",
  revoked: "urn:e2e:revoked",
  moved: "urn:e2e:moved",
  impostor: "urn:e2e:impostor",
  statusDown: "urn:e2e:status-down",
  unknown: "urn:e2e:never",
};

/** A second origin that serves fixed manifests by path, as another resolver would. */
async function otherServer(bodies: Map<string, string>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const body = bodies.get(req.url!);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "Content-Type": "application/ld+json", "Cache-Control": "public, max-age=60" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

let resolver: Started;
let other: { server: Server; url: string };

before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const downBase = `http://127.0.0.1:${await freePort()}`;
  const withStatusRef = (umid: string, statusBase = base) => {
    const manifest = signed(manifestFor(umid), key);
    // statusRef is outside the signing input (core §1.6.2): set after signing, as sign --status-base does.
    return { ...manifest, signature: { ...(manifest.signature as object), statusRef: statusBase + statusPath(umid) } };
  };
  mkdirSync(content, { recursive: true });
  for (const umid of [UMID.active, UMID.suspended, UMID.revoked])
    writeFileSync(join(content, `${umid.split(":")[2]}.json`), JSON.stringify(withStatusRef(umid), null, 2));
  writeFileSync(join(content, "status-down.json"), JSON.stringify(withStatusRef(UMID.statusDown, downBase), null, 2));
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));

  // The other origin serves the moved UMID's manifest, and, for the impostor, a valid manifest of another UMID.
  other = await otherServer(
    new Map([
      ["/moved", canonicalize(withStatusRef(UMID.moved))],
      ["/impostor", canonicalize(withStatusRef(UMID.active))],
    ]),
  );
  writeFileSync(
    join(content, "_routes.json"),
    JSON.stringify({
      redirects: [
        { umid: UMID.moved, location: `${other.url}/moved` },
        { umid: UMID.impostor, location: `${other.url}/impostor` },
      ],
      revoked: [{ umid: UMID.revoked, revokedAt: "2026-06-01T00:00:00Z", reason: "key lost" }],
      suspended: [{ umid: UMID.suspended, suspendedAt: "2026-05-01T00:00:00Z", reason: "under review" }],
    }),
  );
  const built = await runCliInProcess(
    ["build", "--content", content, "--out", dist, "--lookup-out", `${dist}-lookup`],
    scratch,
    { UM_RESOLVER_URL: base },
  );
  assert.equal(built.status, 0, built.stderr);
  resolver = await startPrintingUrl(
    process.execPath,
    [CLI, "serve", "--dist", dist, "--port", String(port)],
    process.env,
    1,
    scratch,
  );
  assert.equal(resolver.url.replace(/\/$/, ""), base);
});

after(async () => {
  await resolver?.stop();
  other?.server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const NOW = "2026-11-01T00:00:00Z";

async function resolveCli(umid: string, ...more: string[]) {
  const result = await runCliInProcess(["resolve", resolver.url, umid, "--now", NOW, ...more], scratch);
  return { ...result, receipt: result.stdout === "" ? undefined : JSON.parse(result.stdout) };
}

describe("resolve over a served build", () => {
  it("an active manifest: accepted, its status active", async () => {
    const { status, receipt, stderr } = await resolveCli(UMID.active);
    assert.equal(status, 0, stderr);
    assert.equal(receipt.manifestId, UMID.active);
    assert.equal(receipt.revocationStatus, "active");
    assert.equal(receipt.signatureCheck, "valid");
    assert.match(receipt.outcome, /^accepted/);
  });

  it("a suspended manifest: served 200, yet accepted with warnings and revocationStatus suspended", async () => {
    const { status, receipt } = await resolveCli(UMID.suspended);
    assert.equal(status, 0);
    assert.equal(receipt.outcome, "accepted-with-warnings");
    assert.equal(receipt.revocationStatus, "suspended");
  });

  it("a revoked UMID (410): a rejected receipt, revocationStatus revoked, exit 1", async () => {
    const { status, receipt } = await resolveCli(UMID.revoked);
    assert.equal(status, 1);
    assert.equal(receipt.manifestId, UMID.revoked);
    assert.equal(receipt.outcome, "rejected");
    assert.equal(receipt.revocationStatus, "revoked");
  });

  it(
    "a status endpoint that is down: unchecked with endpoint-unavailable, never a " + "rejection for that alone",
    async () => {
      const { status, receipt } = await resolveCli(UMID.statusDown);
      assert.equal(status, 0);
      assert.equal(receipt.outcome, "accepted-with-warnings");
      assert.equal(receipt.revocationStatus, "unchecked");
      assert.ok(
        receipt.warnings.some((w: { code: string }) => w.code === "um:reason:status:endpoint-unavailable"),
        JSON.stringify(receipt.warnings),
      );
    },
  );

  it("a redirect to another server: the manifest there is evaluated, its status asked of our resolver", async () => {
    const { status, receipt, stderr } = await resolveCli(UMID.moved);
    assert.equal(status, 0, stderr);
    assert.equal(receipt.manifestId, UMID.moved);
    // The moved UMID has no status here (404 at our status endpoint): unchecked, with the O2.4 reason.
    assert.equal(receipt.revocationStatus, "unchecked");
    assert.ok(
      receipt.warnings.some((w: { code: string }) => w.code === "um:reason:status:endpoint-unknown-manifest"),
      JSON.stringify(receipt.warnings),
    );
  });

  it("core §3.3: a redirect to a manifest that carries another @id: a rejected receipt, exit 1", async () => {
    const { status, stdout } = await resolveCli(UMID.impostor);
    assert.equal(status, 1);
    const receipt = JSON.parse(stdout);
    assert.deepEqual(
      [receipt.manifestId, receipt.outcome, receipt.warnings.map((w: { rule: string }) => w.rule)],
      [UMID.active, "rejected", ["resolve/umid-mismatch"]],
    );
    // Its @id, and the UMID asked for.
    assertLineNames(receipt.warnings[0].message, '"urn:e2e:active"', '"urn:e2e:impostor"');
  });

  it("an unknown UMID (404): exit 1 and one line on stderr", async () => {
    const { status, stdout, stderr } = await resolveCli(UMID.unknown);
    assert.equal(status, 1);
    assert.equal(stdout, "");
    // One line: the UMID, the URL asked, and its status.
    assert.equal(stderr.split("\n").length, 2, stderr);
    assertLineNames(
      stderr,
      "manifest-resolver: ",
      '"urn:e2e:never"',
      `${resolver.url.replace(/\/$/, "")}/urn%3Ae2e%3Anever`,
      "404",
    );
  });

  it("a cached manifest resolved again after its expiresAt is rejected, whatever the cache holds", async () => {
    const cache = join(scratch, "cache");
    const fresh = await resolveCli(UMID.active, "--http-cache", cache);
    assert.equal(fresh.status, 0);
    const expired = await runCliInProcess(
      ["resolve", resolver.url, UMID.active, "--now", "2030-01-01T00:00:01Z", "--http-cache", cache],
      scratch,
    );
    assert.equal(expired.status, 1);
    const receipt = JSON.parse(expired.stdout);
    assert.equal(receipt.outcome, "rejected");
    assert.equal(receipt.freshnessCheck, "expired");
  });
});
