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
import { statusCursor } from "../core/status/status-document.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { readRecords } from "./support/index.ts";
import { assertLineNames, assertUsageError, checkedFiles } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { runCli } from "./support/processes.ts";
import { kvPairs } from "./support/kv-files.ts";

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
const cli = (...args: string[]) => runCliInProcess(args, scratch);

describe("suspend and reinstate", () => {
  it("suspend lists a published UMID with a date and reason; again is a no-op", async () => {
    const dir = content("s1", ["urn:a", "urn:b"]);
    const before = Date.now();
    const first = await cli("suspend", "urn:a", "--reason", "under review", "--content", dir);
    assert.equal(first.status, 0, first.stderr);
    assertLineNames(first.stdout, "urn:a", "s1/content/_routes.json");
    const [entry] = routesOf(dir).suspended;
    assert.equal(entry.umid, "urn:a");
    assert.equal(entry.reason, "under review");
    assert.ok(Date.parse(entry.suspendedAt) >= before - 5 && Date.parse(entry.suspendedAt) <= Date.now());
    // Lists the file did not have, and that stay empty, are not written.
    assert.deepEqual(Object.keys(routesOf(dir)), ["suspended"]);
    const again = await cli("suspend", "urn:a", "--content", dir);
    assert.equal(again.status, 0);
    // It names the entry there is already, at its place.
    assertLineNames(again.stdout, "urn:a", "s1/content/_routes.json:");
    assert.equal(routesOf(dir).suspended.length, 1);
  });

  it(
    "reinstate moves the entry to reinstated, dated after the suspension; a UMID not " + "suspended is a no-op",
    async () => {
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
      assertLineNames(again.stdout, "urn:a");
      assert.deepEqual(routesOf(dir), routes, "nothing changed");
    },
  );

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
    // Each refusal is one line naming the revocation, at its place.
    for (const command of ["reinstate", "suspend"]) {
      const refused = await cli(command, "urn:a", "--content", dir);
      assert.equal(refused.status, 1, command);
      assert.equal(refused.stderr.split("\n").length, 2, refused.stderr);
      assertLineNames(refused.stderr, "manifest-resolver: ", "urn:a", "s4/content/_routes.json:4:15");
    }
    // The UMID asked for, and the nearest published, each at its place.
    const unknown = await cli("suspend", "urn:c", "--content", dir);
    assert.equal(unknown.status, 1);
    assertLineNames(
      unknown.stderr,
      "manifest-resolver: ",
      "urn:c",
      "urn:a (s4/content/m0.json:3:10)",
      "urn:b (s4/content/m1.json:3:10)",
    );
    assert.equal(readFileSync(join(dir, "_routes.json"), "utf8"), text, "nothing was written");
  });

  it("concurrent suspend and reinstate of many UMIDs all land, each once", async () => {
    const umids = Array.from({ length: 8 }, (_, i) => `urn:c:${i}`);
    const dir = content("s5", umids);
    // Processes of their own: runs in this process would take turns, and never meet at the file lock.
    const spawned = (...args: string[]) => runCli(args, scratch);
    const results = await Promise.all(umids.map((umid) => spawned("suspend", umid, "--content", dir)));
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
    await Promise.all(umids.slice(0, 4).map((umid) => spawned("reinstate", umid, "--content", dir)));
    const routes = routesOf(dir);
    assert.deepEqual(routes.suspended.map((e: { umid: string }) => e.umid).sort(), umids.slice(4));
    assert.deepEqual(routes.reinstated.map((e: { umid: string }) => e.umid).sort(), umids.slice(0, 4));
  });
});

describe("_routes.json status lists", () => {
  it(
    "refuses a suspension of a UMID no manifest publishes, a UMID in two lists, and " +
      "a reason that is not one short line",
    async () => {
      const dir = content("r1", ["urn:a", "urn:b"], {
        suspended: [
          { umid: "urn:nobody", suspendedAt: "2026-02-01T00:00:00Z" },
          { umid: "urn:a", suspendedAt: "2026-02-01T00:00:00Z", reason: "two\nlines" },
        ],
        reinstated: [{ umid: "urn:a", reinstatedAt: "2026-02-02T00:00:00Z" }],
        revoked: [{ umid: "urn:b", revokedAt: "2026-02-01T00:00:00Z", reason: "x".repeat(201) }],
      });
      const result = await cli("check", "--json", dir);
      assert.equal(result.status, 1);
      const routes = checkedFiles(result.stdout).find((checked) => checked.file.endsWith("/_routes.json"))!;
      assert.deepEqual(
        routes.errors.map((e) => [e.rule, e.pointer]),
        [
          ["routes/unpublished", "/suspended/0/umid"],
          ["schema/pattern", "/suspended/1/reason"],
          ["routes/conflict", "/reinstated/0/umid"],
          ["schema/maxLength", "/revoked/0/reason"],
        ],
      );
      // The conflict names the entry it conflicts with, at its place.
      assertLineNames(routes.errors[2]!.message, '"urn:a"', "r1/content/_routes.json:8:15");
    },
  );

  it("warns of a status entry without its date: it is served as 1970", async () => {
    const dir = content("r2", ["urn:a"], { suspended: [{ umid: "urn:a" }] });
    const result = await cli("check", "--json", dir);
    assert.equal(result.status, 0, result.stdout);
    const routes = checkedFiles(result.stdout).find((checked) => checked.file.endsWith("/_routes.json"))!;
    assert.deepEqual(
      routes.warnings.map((w) => [w.rule, w.pointer]),
      [["routes/undated", "/suspended/0"]],
    );
    // The member missing, and the date it will be served with.
    assertLineNames(routes.warnings[0]!.message, "suspendedAt", "1970-01-01T00:00:00.000Z");
  });
});

describe("the build records each status", () => {
  it(
    "active since issuedAt or reinstatement, suspended, revoked, in UTC; nextCheck " + "from UM_STATUS_NEXT_CHECK",
    async () => {
      const dir = content("b1", ["urn:a", "urn:b", "urn:c", "urn:d"], {
        suspended: [{ umid: "urn:b", suspendedAt: "2026-02-01T01:00:00+01:00", reason: "review" }],
        reinstated: [{ umid: "urn:c", reinstatedAt: "2026-03-01T00:00:00Z" }],
        revoked: [{ umid: "urn:d", revokedAt: "2026-04-01T00:00:00Z", reason: "key lost" }],
      });
      const out = join(scratch, "b1", "dist");
      const built = await runCliInProcess(
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
      assert.deepEqual(statusOf("urn:a"), {
        status: "active",
        updatedAt: "2026-01-01T00:00:00.000Z",
        nextCheck: "PT1H",
      });
      assert.deepEqual(statusOf("urn:b"), {
        status: "suspended",
        updatedAt: "2026-02-01T00:00:00.000Z",
        reason: "review",
        nextCheck: "PT1H",
      });
      assert.deepEqual(statusOf("urn:c"), {
        status: "active",
        updatedAt: "2026-03-01T00:00:00.000Z",
        nextCheck: "PT1H",
      });
      assert.equal(records["urn:d"]!.revoked, true);
      assert.deepEqual(statusOf("urn:d"), {
        status: "revoked",
        updatedAt: "2026-04-01T00:00:00.000Z",
        reason: "key lost",
        nextCheck: "PT1H",
      });
      // Workers KV carries the same statuses (the Worker derives their ETags: KV metadata has no room).
      const pairs = kvPairs(`${out}-kv`) as { key: string; metadata: { status?: unknown } }[];
      assert.deepEqual(pairs.find((p) => p.key === "um:urn:b")!.metadata.status, statusOf("urn:b"));
      assert.deepEqual(pairs.find((p) => p.key === "um:urn:d")!.metadata.status, statusOf("urn:d"));
      for (const value of ["PT1M30", "P2D"]) {
        const bad = await runCliInProcess(["build", "--content", dir, "--out", out], scratch, {
          UM_STATUS_NEXT_CHECK: value,
        });
        assertUsageError(bad, "UM_STATUS_NEXT_CHECK", "P1D", `'${value}'`);
      }
    },
  );
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
    const checked = await runCliInProcess(["check", dir], scratch, { UM_RESOLVER_URL: base });
    assert.equal(checked.status, 0, checked.stdout);
    // UM_RESOLVER_URL is the default; a URL a status answer cannot be trusted over is refused.
    const fromEnv = await runCliInProcess(
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
    assertUsageError(insecure, "--status-base", '"http://resolver.example"');
  });

  it(
    "check refuses a plaintext statusRef, and one at the configured resolver that is " + "not this UMID's own",
    async () => {
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
      // Issue 37: on this machine, or a private network, while the resolver is not: every client refuses to ask it.
      write("loopback.json", "urn:loop", "http://localhost:8787/s");
      write("private.json", "urn:private", "https://[::ffff:10.0.0.1]/s");
      // The same server however it is spelt: a trailing dot is the same DNS name.
      write("dot.json", "urn:dot", "https://resolver.example./.well-known/manifest-resolver/status/urn%3Asomeone-else");
      // Node looks x.localhost up in DNS: not a loopback host.
      write("sub-localhost.json", "urn:sub", "http://evil.localhost/status");
      // Issue 37: credentials, which fetch refuses (as sign --status-base 'https://u:p@…' wrote them).
      write(
        "credentials.json",
        "urn:cred",
        "https://u:p@other.example/.well-known/manifest-resolver/status/urn%3Acred",
      );
      /** check --json's errors, by file name: each as [rule, pointer], and the messages, for what they name. */
      const errorsByFile = (stdout: string) =>
        Object.fromEntries(
          checkedFiles(stdout)
            .filter((checked) => checked.errors.length > 0)
            .map((checked) => [checked.file.split("/").at(-1)!, checked.errors]),
        );
      const result = await runCliInProcess(["check", "--json", dir], scratch, { UM_RESOLVER_URL: base });
      assert.equal(result.status, 1);
      const errors = errorsByFile(result.stdout);
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(errors).map(([file, found]) => [file, found.map((e) => [e.rule, e.pointer])]),
        ),
        {
          "plain.json": [["signature/status-ref-insecure", "/signature/statusRef"]],
          "borrowed.json": [["signature/status-ref-mismatch", "/signature/statusRef"]],
          "root.json": [["signature/status-ref-mismatch", "/signature/statusRef"]],
          "dot.json": [["signature/status-ref-mismatch", "/signature/statusRef"]],
          "sub-localhost.json": [["signature/status-ref-insecure", "/signature/statusRef"]],
          "credentials.json": [["signature/status-ref-unusable", "/signature/statusRef"]],
          "loopback.json": [["signature/status-ref-local", "/signature/statusRef"]],
          "private.json": [["signature/status-ref-local", "/signature/statusRef"]],
        },
      );
      // The statusRef refused; the resolver it points at, and the status URL it should be.
      assertLineNames(errors["plain.json"]![0]!.message, '"http://status.example/urn:plain"');
      assertLineNames(
        errors["borrowed.json"]![0]!.message,
        "(https://resolver.example)",
        "https://resolver.example/.well-known/manifest-resolver/status/urn%3Amine",
      );
      // Without a configured resolver, only the rules of the URL itself apply: its transport, and that it can be fetched.
      const open = await cli("check", "--json", dir);
      assert.deepEqual(Object.keys(errorsByFile(open.stdout)).sort(), [
        "credentials.json",
        "plain.json",
        "sub-localhost.json",
      ]);
      // A resolver on this machine is one server by any of its names.
      const local = await runCliInProcess(["check", "--json", join(dir, "loopback.json")], scratch, {
        UM_RESOLVER_URL: "http://127.0.0.1:8787",
      });
      const [loopback] = checkedFiles(local.stdout);
      assert.deepEqual(
        loopback!.errors.map((e) => e.rule),
        ["signature/status-ref-mismatch"],
      );
      assertLineNames(loopback!.errors[0]!.message, "(http://127.0.0.1:8787)");
    },
  );
});
