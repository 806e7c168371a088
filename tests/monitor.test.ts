/**
 * `manifest-resolver monitor` (issue 26, section 5): it audits the log a resolver serves (checkpoint, tiles, entry
 * bundles, latest-map buckets), holds it to the checkpoint saved by its last run, and prints the UMIDs whose state
 * changed. Refused, with the state file left as it was: a split view (another log signed with the same key), a
 * shrunk log, a tampered tile or bundle, a bucket that lies, a checkpoint another key signed.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseCheckpoint, signCheckpoint } from "../core/tlog/checkpoint.ts";
import { entryBundle, MAX_ENTRY_SIZE, maxBundleBytes, parseEntryBundle } from "../core/tlog/entry-bundle.ts";
import { TILE_WIDTH } from "../core/tlog/tile.ts";
import { bucketFile, bucketPath, formatLatestLine, latestMap } from "../core/tlog/latest-map.ts";
import { EMPTY_TREE_ROOT, leafHash } from "../core/tlog/merkle.ts";
import { formatVerifierKey } from "../core/tlog/note-keys.ts";
import { utf8 } from "../core/base64url.ts";
import { LOG_ORIGIN as ORIGIN, logScratch, signedLog } from "./support/log-content.ts";
import { type LogServer, publishedLogFiles, serveLogFiles } from "./support/log-server.ts";
import { assertLineNames, assertUsageError } from "./support/problems.ts";

const { dir: scratch, logKey, pem, cli, content, publish, logSigner } = logScratch("um-monitor-");
after(() => rmSync(scratch, { recursive: true, force: true }));

async function logged(dir: string, key = logKey): Promise<Map<string, Uint8Array>> {
  const run = await cli("log", "--key", key, "--content", dir);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  return publishedLogFiles(join(dir, "_log"));
}

/** The lines before the summary, and the summary. */
function output(stdout: string): { lines: string[]; summary: string } {
  const lines = stdout.trimEnd().split("\n");
  return { lines: lines.slice(0, -1), summary: lines.at(-1)! };
}
const SHA = "[A-Za-z0-9_-]{43}";

describe("manifest-resolver monitor", () => {
  const dir = content("view-a");
  const verifier = join(dir, "_log", "verifier");
  const state = join(scratch, "monitor.checkpoint");
  let server: LogServer;
  /** The log as served after each round of changes. */
  const rounds: Map<string, Uint8Array>[] = [];
  const monitor = (...args: string[]) => cli("monitor", server.url, "--log-key", verifier, "--state", state, ...args);
  /** What the monitor must refuse with `rule`, naming the file at `url` (its end), the state file left as it was. */
  async function refuses(files: Map<string, Uint8Array>, rule: string, url: string, ...words: string[]) {
    const saved = readFileSync(state);
    server.files = files;
    const run = await monitor();
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(` - error ${rule}: `));
    assertLineNames(run.stderr, rule, url, ...words);
    assert.equal(run.stdout, "");
    const json = await monitor("--json");
    assert.equal(json.status, 1, json.stdout + json.stderr);
    const report = JSON.parse(json.stdout);
    assert.deepEqual({ ok: report.ok, rule: report.rule }, { ok: false, rule });
    assert.ok(report.url.endsWith(url), report.url);
    assert.deepEqual(readFileSync(state), saved);
  }

  before(async () => {
    publish(dir, "a.json", "urn:a");
    publish(dir, "b.json", "urn:b");
    publish(dir, "c.json", "urn:c");
    rounds.push(await logged(dir));
    server = await serveLogFiles(rounds[0]!);
  });
  after(() => server.stop());

  const shaOf = new Map<string, string>();

  it("lists every UMID on a first run, and saves the checkpoint", async () => {
    const run = await monitor();
    assert.equal(run.status, 0, run.stderr);
    const { lines, summary } = output(run.stdout);
    assert.deepEqual(
      lines.map((line) => line.replace(new RegExp(SHA), "SHA")),
      ["urn:a  - -> active:SHA", "urn:b  - -> active:SHA", "urn:c  - -> active:SHA"],
    );
    for (const line of lines) shaOf.set(line.split("  ")[0]!, line.split(":").at(-1)!);
    assert.match(
      summary,
      /\/.well-known\/manifest-resolver\/log\/checkpoint verified: size 3, root \S+; 3 UMIDs changed since size 0$/,
    );
    assert.deepEqual(new Uint8Array(readFileSync(state)), rounds[0]!.get("checkpoint"));
  });

  it("lists exactly the UMIDs whose state changed since, with their old and new states", async () => {
    publish(dir, "a.json", "urn:a", { issuedAt: "2026-02-01T00:00:00Z" });
    assert.equal((await cli("revoke", "urn:c", "--content", dir)).status, 0);
    publish(dir, "d.json", "urn:d");
    rounds.push(await logged(dir));
    server.files = rounds[1]!;
    const run = await monitor();
    assert.equal(run.status, 0, run.stderr);
    const { lines, summary } = output(run.stdout);
    assert.equal(lines.length, 3, run.stdout);
    assert.match(lines[0]!, new RegExp(`^urn:a  active:${shaOf.get("urn:a")} -> active:${SHA}$`));
    assert.notEqual(lines[0]!.split(":").at(-1), shaOf.get("urn:a"));
    assert.equal(lines[1], `urn:c  active:${shaOf.get("urn:c")} -> revoked`);
    assert.match(lines[2]!, new RegExp(`^urn:d  - -> active:${SHA}$`));
    assert.match(summary, /verified: size 6, root \S+; 3 UMIDs changed since size 3$/);
    assert.deepEqual(new Uint8Array(readFileSync(state)), rounds[1]!.get("checkpoint"));

    const again = await monitor();
    assert.equal(again.status, 0, again.stderr);
    assert.deepEqual(output(again.stdout).lines, []);
    assert.match(again.stdout, /; 0 UMIDs changed since size 6\n$/);
  });

  it("with --umid, prints only the watched UMIDs, and says which the log has no entry for", async () => {
    const run = await cli("monitor", server.url, "--log-key", verifier, "--umid", "urn:c", "--umid", "urn:zz");
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(output(run.stdout).lines, ["urn:c  - -> revoked", "urn:zz  not in the log"]);
    assert.match(output(run.stdout).summary, /; 1 watched UMID changed since size 0$/);
  });

  it("with --json, prints the same as one JSON object, with the log's entries", async () => {
    const run = await cli(
      "monitor",
      server.url,
      "--log-key",
      verifier,
      "--json",
      "--umid",
      "urn:c",
      "--umid",
      "urn:zz",
    );
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.match(report.checkpoint.root, /^[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(report, {
      ok: true,
      checkpoint: { size: 6, root: report.checkpoint.root },
      since: 0,
      changes: [{ umid: "urn:c", before: null, after: { umid: "urn:c", state: "revoked" } }],
      notLogged: ["urn:zz"],
    });
  });

  it("takes the verifier key as text as well as a file", async () => {
    const vkey = readFileSync(verifier, "utf8").trimEnd();
    const run = await cli("monitor", server.url, "--log-key", vkey, "--umid", "urn:b");
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(output(run.stdout).lines, [`urn:b  - -> active:${shaOf.get("urn:b")}`]);
  });

  it("refuses a split view: another log signed with the same key, of which the saved one is no prefix", async () => {
    // Views B and C: logs rebuilt from scratch under the same origin and key, from other content: one longer than
    // view A, one as long (its first three entries view A's own).
    for (const [name, umids] of [
      ["view-b", ["a", "b", "c", "d", "e", "f", "g"]],
      ["view-c", ["a", "b", "c", "x", "y", "z"]],
    ] as const) {
      const other = content(name);
      for (const umid of umids) publish(other, `${umid}.json`, `urn:${umid}`);
      assert.equal((await cli("log", "--key", logKey, "--content", other, "--origin", ORIGIN)).status, 0);
      const view = await publishedLogFiles(join(other, "_log"));
      await refuses(view, "log/inconsistent", "/checkpoint", `(size ${umids.length})`, "split view");
    }
  });

  it("refuses a log that shrank: an older checkpoint than the saved one", async () => {
    await refuses(rounds[0]!, "log/inconsistent", "/checkpoint", "size 3");
  });

  it("refuses a tampered entry bundle, with or without its tile made to match, and a missing tile", async () => {
    const bundlePath = "tile/entries/000.p/6";
    const tilePath = "tile/0/000.p/6";
    const files = new Map(rounds[1]!);
    // urn:d's entry becomes urn:e's: still an entry the log writes, another leaf hash.
    const bundle = new Uint8Array(files.get(bundlePath)!);
    bundle[bundle.length - 3]! ^= 1;
    files.set(bundlePath, bundle);
    await refuses(files, "log/tile-mismatch", `/log/${bundlePath}`, "mismatch");
    files.set(tilePath, Buffer.concat(parseEntryBundle(bundle, 6)!.map(leafHash)));
    await refuses(files, "log/tile-mismatch", "/log/checkpoint", "another root");
    const missing = new Map(rounds[1]!);
    missing.delete(tilePath);
    await refuses(missing, "log/tile-mismatch", `/log/${tilePath}`, "missing");
  });

  // The map of a log where urn:a and urn:c's latest entries are their first: urn:a's old body, urn:c not revoked.
  const lyingMap = () => latestMap(["urn:a", "urn:b", "urn:c", "urn:d", "urn:d", "urn:d"]);

  it("refuses a bucket that lies: another map's bucket, well formed", async () => {
    const files = new Map(rounds[1]!);
    files.set(bucketPath(6, 0), await bucketFile(await lyingMap(), 0));
    await refuses(files, "log/map-mismatch", `/log/${bucketPath(6, 0)}`);
  });

  it("refuses a checkpoint, signed with the log's key, whose latest-map line and buckets lie alike", async () => {
    const lying = await lyingMap();
    const checkpoint = parseCheckpoint(
      `${new TextDecoder().decode(rounds[1]!.get("checkpoint")!).split("\n\n")[0]!}\n`,
    )!;
    const signer = await logSigner();
    const files = new Map(rounds[1]!);
    const note = await signCheckpoint({ ...checkpoint, extensions: [formatLatestLine(lying)] }, signer);
    files.set("checkpoint", new TextEncoder().encode(note));
    files.set(bucketPath(6, 0), await bucketFile(lying, 0));
    await refuses(files, "log/map-mismatch", "/log/checkpoint", "latest-map line");
  });

  it("refuses a checkpoint another key signed", async () => {
    const forged = content("forged");
    publish(forged, "a.json", "urn:a");
    assert.equal((await cli("log", "--key", pem("other.pem"), "--content", forged, "--origin", ORIGIN)).status, 0);
    const files = new Map(rounds[1]!);
    files.set("checkpoint", (await publishedLogFiles(join(forged, "_log"))).get("checkpoint")!);
    await refuses(files, "log/bad-checkpoint", "/checkpoint");
  });

  it("takes a saved checkpoint of the empty log, which every log extends", async () => {
    const empty = join(scratch, "empty.checkpoint");
    const signer = await logSigner();
    writeFileSync(
      empty,
      await signCheckpoint({ origin: ORIGIN, size: 0, rootHash: EMPTY_TREE_ROOT, extensions: [] }, signer),
    );
    server.files = rounds[1]!;
    const run = await cli("monitor", server.url, "--log-key", verifier, "--state", empty);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /; 4 UMIDs changed since size 0\n$/);
    assert.deepEqual(new Uint8Array(readFileSync(empty)), rounds[1]!.get("checkpoint"));
  });

  it("still takes the log it saved, after all those refusals", async () => {
    server.files = rounds[1]!;
    const run = await monitor();
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /; 0 UMIDs changed since size 6\n$/);
  });
});

/** `monitor --json` of `files`, served: its exit status and report; and the text run's stderr. */
async function monitored(files: Map<string, Uint8Array>, ...args: string[]) {
  const server = await serveLogFiles(files);
  try {
    const vkey = formatVerifierKey(ORIGIN, (await logSigner()).publicKey);
    const json = await cli("monitor", server.url, "--log-key", vkey, "--json", ...args);
    const text = await cli("monitor", server.url, "--log-key", vkey, ...args);
    return { status: json.status, report: JSON.parse(json.stdout || "null"), text, served: server.bytesServed };
  } finally {
    await server.stop();
  }
}

describe("monitor of a log its key signed over entries no log writes", () => {
  it("refuses an entry holding a lone surrogate with a rule, in JSON, naming its bundle", async () => {
    // JCS cannot spell the UMID "\ud800": reading the entry threw a TypeError, and --json printed nothing.
    const entries = ['{"sha256":"x","state":"active","umid":"urn:a"}', '{"state":"revoked","umid":"\\ud800"}'];
    const { status, report, text } = await monitored(await signedLog(await logSigner(), entries.map(utf8)));
    assert.equal(status, 1);
    assert.deepEqual({ ok: report.ok, rule: report.rule }, { ok: false, rule: "log/tile-mismatch" });
    assert.ok(report.url.endsWith("/log/tile/entries/000.p/2"), report.url);
    assert.equal(text.status, 1);
    assertLineNames(text.stderr, "log/tile-mismatch", "/log/tile/entries/000.p/2");
  });
});

describe("monitor of a log that undoes a revocation (issue 37: revocation is permanent)", () => {
  const active = '{"sha256":"x","state":"active","umid":"urn:a"}';
  const revoked = '{"state":"revoked","umid":"urn:a"}';
  const log = async (entries: string[]) =>
    signedLog(
      await logSigner(),
      entries.map(utf8),
      entries.map(() => "urn:a"),
    );

  it("fails on a state logged after a revocation, with log/revocation-undone, naming its bundle", async () => {
    const { status, report, text } = await monitored(await log([active, revoked, active]));
    assert.equal(status, 1);
    assert.deepEqual({ ok: report.ok, rule: report.rule }, { ok: false, rule: "log/revocation-undone" });
    assert.ok(report.url.endsWith("/log/tile/entries/000.p/3"), report.url);
    assert.equal(text.status, 1);
    assertLineNames(text.stderr, "log/revocation-undone", "/log/tile/entries/000.p/3", '"urn:a"', "active");
  });

  it("with --state, fails on the revival instead of printing revoked -> active, and keeps the saved checkpoint", async () => {
    const state = join(scratch, "revival.checkpoint");
    const first = await monitored(await log([active, revoked]), "--state", state);
    assert.equal(first.status, 0, JSON.stringify(first.report));
    const saved = readFileSync(state);
    const { status, report, text } = await monitored(await log([active, revoked, active]), "--state", state);
    assert.equal(status, 1);
    assert.equal(report.rule, "log/revocation-undone");
    assert.doesNotMatch(text.stdout, /revoked -> active/);
    assert.deepEqual(readFileSync(state), saved);
  });
});

describe("monitor of a host that inflates entry bundles (issue 37)", () => {
  // Five bundles of a log its key signed, honest; a host without the key then serves each as large as it can be.
  const umids = Array.from({ length: 5 * TILE_WIDTH }, (_, i) => `urn:n:${i}`);
  const entries = umids.map((umid) => utf8(`{"sha256":"x","state":"active","umid":"${umid}"}`));
  const bundles = (files: Map<string, Uint8Array>) =>
    [...files.keys()].filter((path) => path.startsWith("tile/entries/"));
  /** `monitor --json` once over `files`: its report, and the bytes the host served. */
  async function monitoredOnce(files: Map<string, Uint8Array>) {
    const server = await serveLogFiles(files);
    try {
      const vkey = formatVerifierKey(ORIGIN, (await logSigner()).publicKey);
      const run = await cli("monitor", server.url, "--log-key", vkey, "--json");
      return { status: run.status, report: JSON.parse(run.stdout), served: server.bytesServed };
    } finally {
      await server.stop();
    }
  }

  it("refuses the first bundle that is not its tile's entries, having read no other", async () => {
    const honest = await signedLog(await logSigner(), entries, umids);
    const served = await monitoredOnce(honest);
    assert.equal(served.status, 0, JSON.stringify(served.report));
    const honestBytes = [...honest.values()].reduce((total, bytes) => total + bytes.length, 0);
    // Each bundle as many entries as its width says, each of the most bytes an entry can have: a well-formed bundle.
    const inflated = new Map(honest);
    const largest = entryBundle(Array.from({ length: TILE_WIDTH }, () => new Uint8Array(MAX_ENTRY_SIZE)));
    assert.equal(largest.length, maxBundleBytes(TILE_WIDTH));
    for (const path of bundles(honest)) inflated.set(path, largest);
    const { status, report, served: bytes } = await monitoredOnce(inflated);
    assert.equal(status, 1);
    // The honest log, and one inflated bundle at most: not the five (84 MB).
    assert.ok(bytes < honestBytes + 1.5 * maxBundleBytes(TILE_WIDTH), `${bytes} bytes served`);
    assert.deepEqual({ ok: report.ok, rule: report.rule }, { ok: false, rule: "log/tile-mismatch" });
    assert.ok(report.url.endsWith("/log/tile/entries/000"), report.url);
  });

  it("refuses a bundle larger than its width allows, by rule, having read no more than its bound", async () => {
    const honest = await signedLog(await logSigner(), entries, umids);
    const inflated = new Map(honest);
    const over = new Uint8Array(maxBundleBytes(TILE_WIDTH) + 4 * 1024 * 1024);
    for (const path of bundles(honest)) inflated.set(path, over);
    const { status, report, served } = await monitoredOnce(inflated);
    assert.equal(status, 1);
    assert.deepEqual({ ok: report.ok, rule: report.rule }, { ok: false, rule: "log/tile-mismatch" });
    assert.ok(report.url.endsWith("/log/tile/entries/000"), report.url);
    assert.match(report.message, new RegExp(`over the ${maxBundleBytes(TILE_WIDTH)} bytes`));
    assert.ok(served < 1.5 * maxBundleBytes(TILE_WIDTH), `${served} bytes served`);
    // A checkpoint is a few lines: one of megabytes is the log's fault too.
    inflated.set("checkpoint", new Uint8Array(2 * 1024 * 1024));
    const checkpoint = await monitoredOnce(inflated);
    assert.deepEqual(
      { status: checkpoint.status, rule: checkpoint.report.rule },
      { status: 1, rule: "log/bad-checkpoint" },
    );
  });
});

describe("monitor's failures that are not the log's", () => {
  // A key no log has: usable as a key, and nothing it verifies is ever read here.
  const vkey = formatVerifierKey(ORIGIN, new Uint8Array(32));

  it("exits 1 naming the URL when nothing answers, with no rule: the log is not at fault", async () => {
    const server = await serveLogFiles(new Map());
    const { url } = server;
    await server.stop();
    const run = await cli("monitor", url, "--log-key", vkey);
    assert.equal(run.status, 1, run.stderr);
    assertLineNames(run.stderr, `${url}/.well-known/manifest-resolver/log/checkpoint`);
    const json = await cli("monitor", url, "--log-key", vkey, "--json");
    assert.equal(json.status, 1, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.deepEqual({ ...report, message: "" }, { ok: false, rule: null, url: null, message: "" });
    assert.ok(report.message.includes(`${url}/.well-known/manifest-resolver/log/checkpoint`), report.message);
  });

  it("is a usage error for a BASE that is not https: or loopback http:, or a VKEY that is no key", async () => {
    assertUsageError(await cli("monitor", "http://resolver.example", "--log-key", vkey), "BASE");
    assertUsageError(await cli("monitor", "http://127.0.0.1:1", "--log-key", "no-such-file"), "--log-key");
    const garbled = vkey.replace("+", "+0");
    assertUsageError(await cli("monitor", "http://127.0.0.1:1", "--log-key", garbled), "--log-key", garbled);
  });

  it("is a usage error for a --state FILE that holds no checkpoint of the log", async () => {
    const file = join(scratch, "not-a-checkpoint");
    writeFileSync(file, "not a checkpoint\n");
    assertUsageError(await cli("monitor", "http://127.0.0.1:1", "--log-key", vkey, "--state", file), "--state", file);
  });
});
