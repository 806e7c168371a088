/**
 * `manifest-resolver log` (issue 26, sections 1 and 2): the transparency log in content/_log/ that records each
 * change of a UMID's served state, its entries' exact JCS, a checkpoint that verifies with the log's verifier and
 * tiles that audit against it, nothing touched when nothing changed, and the refusals (another key, another origin).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { utf8 } from "../core/base64url.ts";
import { auditLog } from "../core/tlog/audit.ts";
import { openCheckpoint, parseCheckpoint, signCheckpoint } from "../core/tlog/checkpoint.ts";
import { bucketOf, bucketPath, formatLatestLine, latestEntryIn, latestMap } from "../core/tlog/latest-map.ts";
import { parseVerifierKey } from "../core/tlog/note-keys.ts";
import { fileTileStore, openLog } from "../scripts/log/log-folder.ts";
import { publishedLog } from "../scripts/log/published-log.ts";
import { listContent } from "../scripts/read/files.ts";
import { fileDigests, writeFiles } from "./support/file-tree.ts";
import { readRecords } from "./support/index.ts";
import { LOG_ORIGIN as ORIGIN, logScratch, signedLog } from "./support/log-content.ts";
import { assertUsageError } from "./support/problems.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";

const { dir: scratch, logKey, pem, cli, content, publish, loggedThenEdited, logSigner } = logScratch("um-log-");
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The log's entries, once its checkpoint verifies with its verifier and its tiles audit against it. */
async function loggedEntries(dir: string): Promise<string[]> {
  const logDir = join(dir, "_log");
  const key = parseVerifierKey(readFileSync(join(logDir, "verifier"), "utf8").trimEnd());
  assert.ok(key);
  assert.equal(key.name, ORIGIN);
  const opened = await openCheckpoint(readFileSync(join(logDir, "checkpoint")), key, ORIGIN);
  assert.ok(opened.ok, JSON.stringify(opened));
  const entries: string[] = [];
  const audit = await auditLog(fileTileStore(logDir), opened.checkpoint.size, opened.checkpoint.rootHash, (bundle) => {
    for (const entry of bundle) entries.push(Buffer.from(entry).toString("utf8"));
    return true;
  });
  assert.ok(audit.ok, JSON.stringify(audit));
  return entries;
}

/** What the built resolver serves for each UMID, as the log's entry for it says it. */
function servedByBuild(dist: string): Map<string, string> {
  const served = new Map<string, string>();
  for (const [umid, record] of Object.entries(readRecords(dist))) {
    if (record.revoked) served.set(umid, JSON.stringify({ state: "revoked", umid }));
    else if (record.redirect !== undefined)
      served.set(umid, JSON.stringify({ location: record.redirect, state: "redirected", umid }));
    else {
      const sha256 = createHash("sha256")
        .update(readFileSync(join(dist, record.file!)))
        .digest("base64url");
      served.set(umid, JSON.stringify({ sha256, state: record.status!.status, umid }));
    }
  }
  return served;
}

const latestOf = (entries: string[]) =>
  new Map(entries.map((entry) => [(JSON.parse(entry) as { umid: string }).umid, entry]));
const mtimes = (dir: string) =>
  Object.fromEntries(Object.keys(fileDigests(dir)).map((file) => [file, statSync(join(dir, file)).mtimeMs]));

describe("manifest-resolver log", () => {
  const dir = content("rounds");
  const dist = join(scratch, "rounds", "dist");

  it("creates the log on its first run: a checkpoint that verifies with verifier, tiles that audit", async () => {
    publish(dir, "c.json", "urn:c");
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /appended 3 entries: size 3, root [A-Za-z0-9+/]{43}=/);
    const entries = await loggedEntries(dir);
    assert.deepEqual(
      entries.map((e) => JSON.parse(e).umid),
      ["urn:a", "urn:b", "urn:c"],
    );
    const built = await cli("build", "--content", dir, "--out", dist, "--lookup-out", join(scratch, "rounds", "lk"));
    assert.equal(built.status, 0, built.stdout + built.stderr);
    assert.deepEqual(latestOf(entries), servedByBuild(dist));
    // The checkpoint commits to which entry is each UMID's latest.
    const checkpoint = parseCheckpoint(`${readFileSync(join(dir, "_log", "checkpoint"), "utf8").split("\n\n")[0]!}\n`);
    const map = await latestMap(entries.map((entry) => JSON.parse(entry).umid));
    assert.deepEqual(checkpoint?.extensions, [formatLatestLine(map)]);
  });

  it("appends exactly the changed UMIDs, in UMID order, as the built resolver serves them", async () => {
    publish(dir, "d.json", "urn:d");
    publish(dir, "a.json", "urn:a", { issuedAt: "2026-02-01T00:00:00Z" });
    assert.equal((await cli("suspend", "urn:b", "--content", dir)).status, 0);
    const second = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(second.status, 0, second.stderr + second.stdout);
    const afterSecond = await loggedEntries(dir);
    assert.deepEqual(
      afterSecond.slice(3).map((e) => [JSON.parse(e).umid, JSON.parse(e).state]),
      [
        ["urn:a", "active"],
        ["urn:b", "suspended"],
        ["urn:d", "active"],
      ],
    );

    assert.equal((await cli("revoke", "urn:c", "--content", dir)).status, 0);
    unlinkSync(join(dir, "d.json"));
    assert.equal((await cli("redirect", "urn:d", "https://elsewhere.example/d", "--content", dir)).status, 0);
    const third = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(third.status, 0, third.stderr + third.stdout);
    const entries = await loggedEntries(dir);
    assert.deepEqual(entries.slice(6), [
      '{"state":"revoked","umid":"urn:c"}',
      '{"location":"https://elsewhere.example/d","state":"redirected","umid":"urn:d"}',
    ]);
    // The build keeps working with content/_log/ in the content folder, and serves what the log says.
    const built = await cli("build", "--content", dir, "--out", dist, "--lookup-out", join(scratch, "rounds", "lk"));
    assert.equal(built.status, 0, built.stdout + built.stderr);
    assert.deepEqual(latestOf(entries), servedByBuild(dist));
  });

  it("appends nothing and touches no file when nothing changed", async () => {
    const before = { digests: fileDigests(join(dir, "_log")), mtimes: mtimes(join(dir, "_log")) };
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /unchanged: size 8,/);
    assert.deepEqual({ digests: fileDigests(join(dir, "_log")), mtimes: mtimes(join(dir, "_log")) }, before);
  });

  it("refuses another key than the log's, touching nothing", async () => {
    publish(dir, "e.json", "urn:e");
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", pem("other.pem"), "--content", dir);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /_log\/verifier - error log\/wrong-key: /);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
  });

  it("keeps the origin the first run set: another --origin later is a usage error", async () => {
    const run = await cli("log", "--key", logKey, "--content", dir, "--origin", "another.example/log");
    assertUsageError(run, "--origin", "another.example/log");
    const same = await cli("log", "--key", logKey, "--content", dir, "--origin", ORIGIN);
    assert.equal(same.status, 0, same.stderr);
  });

  it("appends over what a run killed before its checkpoint left", async () => {
    // A kill after the tiles of size 10 were written, before the checkpoint: the log is still the one of size 9.
    const size = (await loggedEntries(dir)).length;
    assert.equal(size, 9);
    writeFiles(join(dir, "_log"), { "tile/entries/000.p/10": "left by a killed run", "tile/0/000.p/10": "x" });
    assert.equal((await loggedEntries(dir)).length, 9);
    publish(dir, "f.json", "urn:f");
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.equal(JSON.parse((await loggedEntries(dir))[9]!).umid, "urn:f");
  });

  it("publishes the checkpoint, its tiles and bundles, and buckets that prove each UMID's latest entry", async () => {
    const logDir = join(dir, "_log");
    const opened = await openLog(logDir);
    assert.ok(opened.ok && opened.checkpoint && opened.map);
    const files = await publishedLog(logDir, opened);
    assert.deepEqual(files.get("checkpoint"), new Uint8Array(readFileSync(join(logDir, "checkpoint"))));
    // The tiles of the checkpoint's tree only: not what the killed run left past it.
    const { size } = opened.checkpoint;
    assert.deepEqual(
      [...files.keys()].filter((path) => path.startsWith("tile/")),
      [`tile/0/000.p/${size}`, `tile/entries/000.p/${size}`],
    );
    const entries = await loggedEntries(dir);
    for (const [umid, entry] of latestOf(entries)) {
      const bucket = files.get(bucketPath(size, bucketOf(umid, opened.map.bits)))!;
      const found = latestEntryIn(bucket, umid, opened.map);
      assert.ok(found.ok, umid);
      assert.equal(entries[found.index], entry);
    }
  });

  it("does not take the log's files for manifests", async () => {
    const listing = await listContent(dir);
    assert.ok(listing.others.includes("_log/checkpoint"));
    assert.deepEqual(
      listing.manifests.filter((file) => file.startsWith("_log")),
      [],
    );
  });
});

describe("a new log's origin", () => {
  it("is --origin when given, and a usage error when neither it nor UM_RESOLVER_URL says", async () => {
    const dir = content("origin");
    publish(dir, "a.json", "urn:a");
    assertUsageError(
      await runCliInProcess(["log", "--key", logKey, "--content", dir], scratch, { UM_RESOLVER_URL: "" }),
    );
    const run = await cli("log", "--key", logKey, "--content", dir, "--origin", "log.example/x");
    assert.equal(run.status, 0, run.stderr);
    assert.match(readFileSync(join(dir, "_log", "verifier"), "utf8"), /^log\.example\/x\+[0-9a-f]{8}\+/);
  });
});

describe("a log that does not verify", () => {
  it("is refused, and left as it is: an edited old entry", async () => {
    const dir = await loggedThenEdited("edited");
    publish(dir, "b.json", "urn:b");
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /error log\/unverifiable: /);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
  });

  it("is refused when its checkpoint, signed with the log's key, commits to another latest map", async () => {
    const dir = content("wrong-map");
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    const file = join(dir, "_log", "checkpoint");
    const checkpoint = parseCheckpoint(`${readFileSync(file, "utf8").split("\n\n")[0]!}\n`)!;
    // The map of a log where urn:a's latest entry is urn:b's: a log that would hide urn:b's state.
    const wrong = await latestMap(["urn:b", "urn:a"]);
    const signer = await logSigner();
    writeFileSync(file, await signCheckpoint({ ...checkpoint, extensions: [formatLatestLine(wrong)] }, signer));
    const run = await cli("check", "--content", dir);
    assert.equal(run.status, 1);
    assert.match(run.stdout + run.stderr, /_log\/checkpoint - error log\/unverifiable: its latest-map line/);
  });
});

describe("content that check refuses", () => {
  it("is refused, and the log left as it is", async () => {
    const dir = content("refused");
    publish(dir, "a.json", "urn:a");
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    // Edited after signing: its signature no longer verifies, so build would refuse the content.
    const file = join(dir, "a.json");
    writeFileSync(file, readFileSync(file, "utf8").replace("2030-01-01", "2031-01-01"));
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /error signature\//);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
  });
});

describe("a UMID too long for the log", () => {
  it("is refused with log/entry-too-large, naming it, and the log left as it is", async () => {
    const dir = content("too-large");
    publish(dir, "a.json", "urn:a");
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    // A revocation the content check takes: its entry is over the 65,535 bytes a bundle's uint16 length can say.
    const umid = `urn:${"b".repeat(70_000)}`;
    writeFileSync(join(dir, "_routes.json"), JSON.stringify({ revoked: [{ umid }] }));
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /_log\/checkpoint - error log\/entry-too-large: .*"urn:bbbb/);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
  });
});

describe("a revocation dropped from the content (issue 37: revocation is permanent)", () => {
  it("is never logged as undone: log/revocation-undone in log, check and build, and nothing written", async () => {
    const dir = content("unrevoked");
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    const routes = join(dir, "_routes.json");
    assert.equal((await cli("revoke", "urn:a", "--content", dir)).status, 0);
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    // A direct push drops the revocation: urn:a's manifest is served again, and urn:b changed too.
    unlinkSync(routes);
    publish(dir, "b.json", "urn:b", { subject: "did:web:changed.example" });
    const check = await cli("check", "--json", "--content", dir);
    assert.equal(check.status, 1, check.stdout + check.stderr);
    const rules = check.stdout
      .trim()
      .split("\n")
      .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
    // urn:b's change is still stale; urn:a's is no longer one that running log would fix.
    assert.deepEqual(rules.sort(), ["log/revocation-undone", "log/stale"]);
    const human = await cli("check", "--content", dir);
    assert.match(human.stdout, /_log\/checkpoint - error log\/revocation-undone: 1 UMID .*"urn:a"/);
    assert.match(human.stdout, /error log\/stale: 1 UMID's served state .*"urn:b"/);
    const before = fileDigests(join(dir, "_log"));
    const run = await cli("log", "--key", logKey, "--content", dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /_log\/checkpoint - error log\/revocation-undone: .*"urn:a"/);
    assert.deepEqual(fileDigests(join(dir, "_log")), before);
    const out = join(scratch, "unrevoked", "dist");
    const build = await cli("build", "--content", dir, "--out", out, "--lookup-out", `${out}-lookup`);
    assert.equal(build.status, 1, build.stdout + build.stderr);
    assert.match(build.stdout, /error log\/revocation-undone: /);
  });

  it("is refused where a log already records it, naming the entry's bundle", async () => {
    const dir = content("revived");
    publish(dir, "a.json", "urn:a");
    assert.equal((await cli("log", "--key", logKey, "--content", dir)).status, 0);
    const [active] = await loggedEntries(dir);
    // The log's key signed urn:a active, revoked, then active again: a log made by a build before this rule.
    const entries = [active!, '{"state":"revoked","umid":"urn:a"}', active!];
    rmSync(join(dir, "_log", "tile"), { recursive: true });
    const files = await signedLog(await logSigner(), entries.map(utf8), ["urn:a", "urn:a", "urn:a"]);
    writeFiles(join(dir, "_log"), Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes)])));
    const run = await cli("check", "--content", dir);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /_log\/tile\/entries\/000\.p\/3 - error log\/revocation-undone: entry 2 logs "urn:a" active after its revocation/,
    );
  });
});
