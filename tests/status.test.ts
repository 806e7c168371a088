/**
 * Status on the publisher's side (EXT-OPT O2, issue 11): `suspend` and `reinstate`, the
 * dates they write (each status change later than the one it ends, so the cursor keeps
 * increasing), revocation as permanent, `_routes.json` rules for the new lists,
 * `sign --status-base`, the statusRef rules of `check`, and what the build records.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { statusCursor } from "../core/status.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { readRecords } from "./support/index.ts";
import { runCli } from "./support/processes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-status-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const key = newKey();
const keyFile = join(scratch, "key.pem");
writeFileSync(keyFile, key.export({ format: "pem", type: "pkcs8" }));

/** A content folder `name` publishing `umids` (issued 2026-01-01), with `routes` as its _routes.json. */
function content(name: string, umids: string[], routes?: unknown): string {
  const dir = join(scratch, name, "content");
  mkdirSync(dir, { recursive: true });
  for (const [i, umid] of umids.entries()) {
    writeFileSync(join(dir, `m${i}.json`), JSON.stringify(signed(manifestFor(umid), key), null, 2));
  }
  writeFileSync(join(dir, "_keys.json"), JSON.stringify(pinning(key)));
  if (routes !== undefined) writeFileSync(join(dir, "_routes.json"), JSON.stringify(routes, null, 2));
  return dir;
}
const routesOf = (dir: string) => JSON.parse(readFileSync(join(dir, "_routes.json"), "utf8"));
const cli = (...args: string[]) => runCli(args, scratch);

describe("suspend and reinstate", () => {
  it("suspend lists a published UMID with a date and reason; again is a no-op", async () => {
    const dir = content("s1", ["urn:a", "urn:b"]);
    const before = Date.now();
    const first = await cli("suspend", "urn:a", "--reason", "under review", "--content", dir);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^suspended urn:a in \S+_routes\.json\n$/);
    const [entry] = routesOf(dir).suspended;
    assert.equal(entry.umid, "urn:a");
    assert.equal(entry.reason, "under review");
    assert.ok(Date.parse(entry.suspendedAt) >= before - 5 && Date.parse(entry.suspendedAt) <= Date.now());
    // Lists the file did not have, and that stay empty, are not written.
    assert.deepEqual(Object.keys(routesOf(dir)), ["suspended"]);
    const again = await cli("suspend", "urn:a", "--content", dir);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /^urn:a is already suspended at \S+_routes\.json:\d+:\d+\n$/);
    assert.equal(routesOf(dir).suspended.length, 1);
  });

  it("reinstate moves the entry to reinstated, dated after the suspension; a UMID not suspended is a no-op", async () => {
    // A suspension dated in the future (a clock ahead): the reinstatement still comes after it.
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const dir = content("s2", ["urn:a"], { suspended: [{ umid: "urn:a", suspendedAt: future }] });
    const done = await cli("reinstate", "urn:a", "--content", dir);
    assert.equal(done.status, 0, done.stderr);
    const routes = routesOf(dir);
    assert.deepEqual(routes.suspended, []);
    assert.equal(routes.reinstated[0].umid, "urn:a");
    assert.equal(Date.parse(routes.reinstated[0].reinstatedAt), Date.parse(future) + 1);
    assert.ok(statusCursor(routes.reinstated[0].reinstatedAt) > statusCursor(future));
    const again = await cli("reinstate", "urn:a", "--content", dir);
    assert.equal(again.status, 0);
    assert.equal(again.stdout, "urn:a is not suspended\n");
  });

  it("a suspension after a reinstatement replaces it, and revoking a suspended UMID ends its suspension", async () => {
    const dir = content("s3", ["urn:a"], { reinstated: [{ umid: "urn:a", reinstatedAt: "2026-02-01T00:00:00Z" }] });
    assert.equal((await cli("suspend", "urn:a", "--content", dir)).status, 0);
    assert.deepEqual(routesOf(dir).reinstated, []);
    assert.equal(routesOf(dir).suspended[0].umid, "urn:a");
    assert.equal((await cli("revoke", "urn:a", "--content", dir)).status, 0);
    assert.deepEqual(routesOf(dir).suspended, []);
    assert.equal(routesOf(dir).revoked[0].umid, "urn:a");
  });

  it("refuses a revoked UMID (revocation is permanent), and a UMID no manifest publishes", async () => {
    const dir = content("s4", ["urn:a", "urn:b"], { revoked: [{ umid: "urn:a", revokedAt: "2026-02-01T00:00:00Z" }] });
    const text = readFileSync(join(dir, "_routes.json"), "utf8");
    const reinstate = await cli("reinstate", "urn:a", "--content", dir);
    assert.equal(reinstate.status, 1);
    assert.match(
      reinstate.stderr,
      /^manifest-resolver: urn:a is revoked at \S+_routes\.json:4:15: revocation is permanent, a revoked UMID cannot be reinstated\n$/,
    );
    const suspend = await cli("suspend", "urn:a", "--content", dir);
    assert.equal(suspend.status, 1);
    assert.match(suspend.stderr, /a revoked UMID stays revoked/);
    const unknown = await cli("suspend", "urn:c", "--content", dir);
    assert.equal(unknown.status, 1);
    assert.match(
      unknown.stderr,
      /no manifest in the content folder publishes urn:c, and only a published manifest can be suspended; the nearest published: urn:a \(\S+\), urn:b \(\S+\)\n$/,
    );
    assert.equal(readFileSync(join(dir, "_routes.json"), "utf8"), text, "nothing was written");
  });

  it("concurrent suspend and reinstate of many UMIDs all land, each once", async () => {
    const umids = Array.from({ length: 8 }, (_, i) => `urn:c:${i}`);
    const dir = content("s5", umids);
    const results = await Promise.all(umids.map((umid) => cli("suspend", umid, "--content", dir)));
    assert.ok(
      results.every((r) => r.status === 0),
      results.map((r) => r.stderr).join(""),
    );
    assert.deepEqual(
      routesOf(dir)
        .suspended.map((e: { umid: string }) => e.umid)
        .sort(),
      umids,
    );
    await Promise.all(umids.slice(0, 4).map((umid) => cli("reinstate", umid, "--content", dir)));
    const routes = routesOf(dir);
    assert.deepEqual(routes.suspended.map((e: { umid: string }) => e.umid).sort(), umids.slice(4));
    assert.deepEqual(routes.reinstated.map((e: { umid: string }) => e.umid).sort(), umids.slice(0, 4));
  });
});

describe("_routes.json status lists", () => {
  it("refuses a suspension of a UMID no manifest publishes, a UMID in two lists, and a reason that is not one short line", async () => {
    const dir = content("r1", ["urn:a", "urn:b"], {
      suspended: [
        { umid: "urn:nobody", suspendedAt: "2026-02-01T00:00:00Z" },
        { umid: "urn:a", suspendedAt: "2026-02-01T00:00:00Z", reason: "two\nlines" },
      ],
      reinstated: [{ umid: "urn:a", reinstatedAt: "2026-02-02T00:00:00Z" }],
      revoked: [{ umid: "urn:b", revokedAt: "2026-02-01T00:00:00Z", reason: "x".repeat(201) }],
    });
    const result = await cli("check", dir);
    assert.equal(result.status, 1);
    assert.match(
      result.stdout,
      /_routes\.json:\d+:\d+ - error routes\/unpublished: UMID "urn:nobody" is suspended here, but no manifest in the content folder publishes it/,
    );
    assert.match(
      result.stdout,
      /_routes\.json:\d+:\d+ - error routes\/conflict: UMID "urn:a" is already suspended at \S+_routes\.json:\d+:\d+ at \/reinstated\/0\/umid/,
    );
    assert.match(result.stdout, /error schema\/pattern: .* at \/suspended\/1\/reason/);
    assert.match(result.stdout, /error schema\/maxLength: .* at \/revoked\/0\/reason/);
  });

  it("warns of a status entry without its date: it is served as 1970", async () => {
    const dir = content("r2", ["urn:a"], { suspended: [{ umid: "urn:a" }] });
    const result = await cli("check", dir);
    assert.equal(result.status, 0, result.stdout);
    assert.match(
      result.stdout,
      /_routes\.json:\d+:\d+ - warning routes\/undated: has no suspendedAt: its status document will say this status began at 1970-01-01T00:00:00\.000Z; add when it did at \/suspended\/0/,
    );
  });
});

describe("the build records each status", () => {
  it("active since issuedAt or reinstatement, suspended, revoked, in UTC; nextCheck from UM_STATUS_NEXT_CHECK", async () => {
    const dir = content("b1", ["urn:a", "urn:b", "urn:c", "urn:d"], {
      suspended: [{ umid: "urn:b", suspendedAt: "2026-02-01T01:00:00+01:00", reason: "review" }],
      reinstated: [{ umid: "urn:c", reinstatedAt: "2026-03-01T00:00:00Z" }],
      revoked: [{ umid: "urn:d", revokedAt: "2026-04-01T00:00:00Z", reason: "key lost" }],
    });
    const out = join(scratch, "b1", "dist");
    const built = await runCli(
      ["build", "--content", dir, "--out", out, "--lookup-out", `${out}-lookup`, "--kv-out", `${out}-kv`],
      scratch,
      { UM_STATUS_NEXT_CHECK: "PT1H" },
    );
    assert.equal(built.status, 0, built.stderr);
    const records = readRecords(out);
    // Each with the ETag of its status document, which tests/etag.test.ts checks against the bytes served.
    const statusOf = (umid: string) => {
      const { etag, ...status } = records[umid]!.status!;
      assert.match(etag!, /^W\/"sha256-[\w-]{43}"$/);
      return status;
    };
    assert.deepEqual(statusOf("urn:a"), { status: "active", updatedAt: "2026-01-01T00:00:00.000Z", nextCheck: "PT1H" });
    assert.deepEqual(statusOf("urn:b"), {
      status: "suspended",
      updatedAt: "2026-02-01T00:00:00.000Z",
      reason: "review",
      nextCheck: "PT1H",
    });
    assert.deepEqual(statusOf("urn:c"), { status: "active", updatedAt: "2026-03-01T00:00:00.000Z", nextCheck: "PT1H" });
    assert.equal(records["urn:d"]!.revoked, true);
    assert.deepEqual(statusOf("urn:d"), {
      status: "revoked",
      updatedAt: "2026-04-01T00:00:00.000Z",
      reason: "key lost",
      nextCheck: "PT1H",
    });
    // Workers KV carries the same statuses (the Worker derives their ETags: KV metadata has no room).
    const pairs = JSON.parse(readFileSync(join(`${out}-kv`, "kv-00001.json"), "utf8")) as {
      key: string;
      metadata: { status?: unknown };
    }[];
    assert.deepEqual(pairs.find((p) => p.key === "um:urn:b")!.metadata.status, statusOf("urn:b"));
    assert.deepEqual(pairs.find((p) => p.key === "um:urn:d")!.metadata.status, statusOf("urn:d"));
    for (const value of ["PT1M30", "P2D"]) {
      const bad = await runCli(["build", "--content", dir, "--out", out], scratch, { UM_STATUS_NEXT_CHECK: value });
      assert.equal(bad.status, 2);
      assert.match(
        bad.stderr,
        new RegExp(
          `UM_STATUS_NEXT_CHECK must be an ISO 8601 duration of days, hours, minutes and seconds, at most P1D, such as PT10M, not '${value}'`,
        ),
      );
    }
  });
});

describe("statusRef", () => {
  const base = "https://resolver.example";
  it("sign --status-base fills each manifest's own status URL, b64u: where a path cannot carry the UMID", async () => {
    const dir = content("f1", []);
    writeFileSync(join(dir, "a.json"), JSON.stringify(manifestFor("urn:a"), null, 2));
    writeFileSync(join(dir, "slash.json"), JSON.stringify(manifestFor("a/b"), null, 2));
    const done = await cli(
      "sign",
      join(dir, "a.json"),
      join(dir, "slash.json"),
      "--key",
      keyFile,
      "--key-ref",
      "did:web:fixture.example#key-1",
      "--status-base",
      `${base}/`,
      "--content",
      dir,
    );
    assert.equal(done.status, 0, done.stderr);
    const refOf = (file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")).signature.statusRef;
    assert.equal(refOf("a.json"), `${base}/.well-known/manifest-resolver/status/urn%3Aa`);
    assert.equal(refOf("slash.json"), `${base}/.well-known/manifest-resolver/status/b64u:YS9i`);
    // check agrees, with the same resolver configured.
    const checked = await runCli(["check", dir], scratch, { UM_RESOLVER_URL: base });
    assert.equal(checked.status, 0, checked.stdout);
    // UM_RESOLVER_URL is the default; a URL a status answer cannot be trusted over is refused.
    const fromEnv = await runCli(
      ["sign", join(dir, "a.json"), "--key", keyFile, "--key-ref", "did:web:fixture.example#key-1", "--content", dir],
      scratch,
      { UM_RESOLVER_URL: "http://127.0.0.1:8787" },
    );
    assert.equal(fromEnv.status, 0, fromEnv.stderr);
    assert.equal(refOf("a.json"), "http://127.0.0.1:8787/.well-known/manifest-resolver/status/urn%3Aa");
    const insecure = await cli(
      "sign",
      join(dir, "a.json"),
      "--key",
      keyFile,
      "--key-ref",
      "did:web:fixture.example#key-1",
      "--status-base",
      "http://resolver.example",
      "--content",
      dir,
    );
    assert.equal(insecure.status, 2);
    assert.match(
      insecure.stderr,
      /--status-base must be an https: URL \(or http: to a loopback host\) for a statusRef, not 'http:\/\/resolver\.example'/,
    );
  });

  it("check refuses a plaintext statusRef, and one at the configured resolver that is not this UMID's own", async () => {
    const dir = content("f2", []);
    const write = (file: string, umid: string, statusRef: string) => {
      const manifest = signed(manifestFor(umid), key);
      writeFileSync(
        join(dir, file),
        JSON.stringify({ ...manifest, signature: { ...(manifest.signature as object), statusRef } }, null, 2),
      );
    };
    write("plain.json", "urn:plain", "http://status.example/urn:plain");
    write("borrowed.json", "urn:mine", `${base}/.well-known/manifest-resolver/status/urn%3Asomeone-else`);
    write("root.json", "urn:root", `${base}/urn%3Aroot`);
    write("own-b64u.json", "urn:own", `${base}/.well-known/manifest-resolver/status/b64u:dXJuOm93bg`);
    write("elsewhere.json", "urn:else", "https://other.example/status/anything");
    write("loopback.json", "urn:loop", "http://localhost:8787/s");
    // The same server however it is spelt: a trailing dot is the same DNS name.
    write("dot.json", "urn:dot", "https://resolver.example./.well-known/manifest-resolver/status/urn%3Asomeone-else");
    // Node looks x.localhost up in DNS: not a loopback host.
    write("sub-localhost.json", "urn:sub", "http://evil.localhost/status");
    const result = await runCli(["check", dir], scratch, { UM_RESOLVER_URL: base });
    assert.equal(result.status, 1);
    const errors = result.stdout.split("\n").filter((line) => line.includes(" - error "));
    assert.equal(errors.length, 5, result.stdout);
    assert.match(result.stdout, /dot\.json:\d+:\d+ - error signature\/status-ref-mismatch/);
    assert.match(result.stdout, /sub-localhost\.json:\d+:\d+ - error signature\/status-ref-insecure/);
    assert.match(
      result.stdout,
      /plain\.json:\d+:\d+ - error signature\/status-ref-insecure: must be an https: URL \(or http: to a loopback host\), not "http:\/\/status\.example\/urn:plain": a status document carries no signature, only its transport protects it \(EXT-OPT O2\.1\) at \/signature\/statusRef/,
    );
    assert.match(
      result.stdout,
      /borrowed\.json:\d+:\d+ - error signature\/status-ref-mismatch: points at this publisher's resolver \(https:\/\/resolver\.example\) but not at this manifest's own status URL, https:\/\/resolver\.example\/\.well-known\/manifest-resolver\/status\/urn%3Amine at \/signature\/statusRef/,
    );
    assert.match(result.stdout, /root\.json:\d+:\d+ - error signature\/status-ref-mismatch/);
    // Without a configured resolver, only the transport rule applies.
    const open = await cli("check", dir);
    assert.equal(open.stdout.split("\n").filter((line) => line.includes(" - error ")).length, 2, open.stdout);
    // A resolver on this machine is one server by any of its names.
    const local = await runCli(["check", join(dir, "loopback.json")], scratch, {
      UM_RESOLVER_URL: "http://127.0.0.1:8787",
    });
    assert.match(
      local.stdout,
      /loopback\.json:\d+:\d+ - error signature\/status-ref-mismatch: points at this publisher's resolver \(http:\/\/127\.0\.0\.1:8787\)/,
    );
  });
});
