/**
 * The transparency log's readers under mutated input (issue 37, defect 10): signed notes and checkpoints, entry
 * bundles, entries, tiles and the latest map's buckets, each read alone, then as the three readers of a whole log
 * read them: the client proving a UMID's entry (`log/*` refusals), `check`'s opening of content/_log/ (the file found
 * wrong, which the gate names by rule), and `monitor`'s audit over HTTP (`log/*` rules). None throws.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBase64url, utf8 } from "../../core/base64url.ts";
import { latestLogged } from "../../core/client/latest-logged.ts";
import { keyOnlyPolicy } from "../../core/tlog/log-policy.ts";
import type { NoteKey } from "../../core/tlog/note-keys.ts";
import { isRuleId } from "../../core/rules/index.ts";
import { openCheckpoint } from "../../core/tlog/checkpoint.ts";
import { parseEntryBundle } from "../../core/tlog/entry-bundle.ts";
import { bucketOf, bucketPath, latestEntryIn, latestMap } from "../../core/tlog/latest-map.ts";
import { formatLogEntry, type LogEntry, parseLogEntry } from "../../core/tlog/log-entry.ts";
import { ed25519Signer, type NoteSigner } from "../../core/tlog/note-signature.ts";
import { LOG_PREFIX } from "../../core/umid-path.ts";
import { openLog } from "../../scripts/log/log-folder.ts";
import { monitorLog } from "../../scripts/log/monitor-log.ts";
import { serveLogFiles } from "../support/log-server.ts";
import { type SignedLog, signedLog } from "../support/signed-log.ts";
import { DEEP_JSON, documentText, excerpt, holds, mutatedBytes, mutatedText } from "../support/properties.ts";

const ORIGIN = "fixture.example/.well-known/manifest-resolver/log";
const BASE = "https://fixture.example";
/** The monitor's policy of the log's key alone, at the clock now. */
const keyOnly = (key: NoteKey) => ({ policy: keyOnlyPolicy(key), now: Date.now() });
/** A full bundle and a partial one, so that both widths are read. */
const UMIDS = Array.from({ length: 260 }, (_, i) => `urn:property:${i}`);
const entryOf = (umid: string, i: number): LogEntry =>
  i % 7 === 0
    ? { umid, state: "revoked" }
    : i % 11 === 0
      ? { umid, state: "redirected", location: `https://elsewhere.example/${i}` }
      : { umid, state: "active", sha256: encodeBase64url(sha256(utf8(umid))) };

interface Log extends SignedLog {
  signer: NoteSigner;
}

/** A log of UMIDS's entries. */
async function makeLog(): Promise<Log> {
  const signer = (await ed25519Signer({ name: ORIGIN, seed: randomBytes(32) }))!;
  return { ...(await signedLog(UMIDS.map(entryOf).map(formatLogEntry), UMIDS, signer)), signer };
}

/** One of the log's files damaged: its bytes, or (for a text file) its text. */
function damagedFile(files: Map<string, Uint8Array>): fc.Arbitrary<[string, Uint8Array]> {
  return fc.constantFrom(...files.keys()).chain((path) => {
    const bytes = files.get(path)!;
    const damaged = fc.oneof(
      mutatedBytes(bytes),
      mutatedText(Buffer.from(bytes).toString("utf8")).map((text) => utf8(text)),
      fc.constant(new Uint8Array(0)),
    );
    return damaged.map((d) => [path, d] as [string, Uint8Array]);
  });
}

let log: Log;
before(async () => {
  log = await makeLog();
});

describe("properties: the transparency log's files, each read alone", () => {
  it("a signed checkpoint opens, or is refused for a reason", async () => {
    const note = Buffer.from(log.files.get("checkpoint")!).toString("utf8");
    assert.equal((await openCheckpoint(note, log.signer, ORIGIN)).ok, true);
    const reasons = ["malformed", "no-known-signature", "bad-signature", "not-a-checkpoint", "wrong-origin"];
    await holds(
      "checkpoint",
      fc.asyncProperty(fc.oneof(mutatedText(note), fc.string({ unit: "binary", maxLength: 120 })), async (text) => {
        const opened = await openCheckpoint(text, log.signer, ORIGIN);
        assert.ok(opened.ok || reasons.includes(opened.reason), excerpt(text));
      }),
      300,
    );
  });

  it("an entry bundle gives its entries or nothing, and each entry is one the log writes or nothing", async () => {
    const bundle = log.files.get("tile/entries/000")!;
    assert.equal(parseEntryBundle(bundle, 256)?.length, 256);
    await holds(
      "entry bundle",
      fc.property(mutatedBytes(bundle), fc.constantFrom(256, 4, 1), (bytes, width) => {
        for (const entry of parseEntryBundle(bytes, width) ?? []) parseLogEntry(entry);
      }),
      200,
    );
    await holds(
      "log entry",
      fc.property(documentText({ sha256: "x", state: "active", umid: "urn:a" }), (text) => {
        const entry = parseLogEntry(utf8(text));
        assert.ok(entry === undefined || typeof entry.umid === "string", excerpt(text));
      }),
      300,
    );
  });

  it("a signed log holding an entry whose UMID is a lone surrogate is refused", async () => {
    const text = '{"state":"revoked","umid":"\\ud800"}';
    // Read as an entry or not one, as the fix decides: not thrown.
    const entry = parseLogEntry(utf8(text));
    assert.ok(entry === undefined || entry.umid === "\ud800", excerpt(text));
    // Its latest map is UMIDS's: JCS cannot spell this UMID, so `log` never makes such a map, but a key holder can.
    const signer = (await ed25519Signer({ name: ORIGIN, seed: randomBytes(32) }))!;
    const lone = await signedLog([...UMIDS.map(entryOf).map(formatLogEntry), utf8(text)], UMIDS, signer);
    const server = await serveLogFiles(lone.files);
    try {
      const monitored = await monitorLog(`${server.url}${LOG_PREFIX}/`, keyOnly(signer), undefined);
      assert.ok(!monitored.ok && isRuleId(monitored.rule));
    } finally {
      await server.stop();
    }
  });

  it("a bucket file proves a UMID's latest entry, or is malformed, another, or names none", async () => {
    const map = await latestMap(UMIDS);
    const umid = UMIDS[5]!;
    const path = bucketPath(UMIDS.length, bucketOf(umid, map.bits));
    const bucket = log.files.get(path)!;
    assert.deepEqual(latestEntryIn(bucket, umid, map), { ok: true, index: 5 });
    const reasons = ["malformed", "mismatch", "not-logged"];
    await holds(
      "bucket",
      fc.property(
        fc.oneof(mutatedBytes(bucket), documentText(JSON.parse(Buffer.from(bucket).toString())).map(utf8)),
        (bytes) => {
          const latest = latestEntryIn(bytes, umid, map);
          assert.ok(latest.ok || reasons.includes(latest.reason), excerpt(bytes));
        },
      ),
      250,
    );
  });
});

it("a bucket file nested thousands deep is malformed", async () => {
  const map = await latestMap(UMIDS);
  for (const text of DEEP_JSON)
    assert.deepEqual(latestEntryIn(utf8(text), UMIDS[0]!, map), { ok: false, reason: "malformed" });
});

describe("properties: a whole log with one file damaged", () => {
  const dir = mkdtempSync(join(tmpdir(), "um-property-log-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the client proves the UMID's entry or refuses with a log/* rule", async () => {
    const served = (files: Map<string, Uint8Array>) => ({
      fetch: async (url: string | URL | Request) => {
        const path = String(url).slice(`${BASE}${LOG_PREFIX}/`.length);
        const body = files.get(path);
        return body === undefined ? new Response(null, { status: 404 }) : new Response(new Uint8Array(body));
      },
      timeoutMs: 1_000,
    });
    const request = (files: Map<string, Uint8Array>) => ({
      policy: keyOnlyPolicy(log.signer),
      now: Date.now(),
      memory: undefined,
      transport: served(files),
    });
    assert.equal((await latestLogged(BASE, UMIDS[3]!, request(log.files))).ok, true);
    await holds(
      "client's log proof",
      fc.asyncProperty(damagedFile(log.files), fc.constantFrom(...UMIDS), async ([path, bytes], umid) => {
        const logged = await latestLogged(BASE, umid, request(new Map([...log.files, [path, bytes]])));
        assert.ok(logged.ok || isRuleId(logged.refusal.rule), `${path}: ${excerpt(bytes)}`);
      }),
      150,
    );
  });

  it("check's opening of content/_log/ verifies it or names the file found wrong", async () => {
    const publisherFiles = new Map([...log.files].filter(([path]) => !path.startsWith("latest/")));
    publisherFiles.set("verifier", utf8(`${log.verifier}\n`));
    const folder = join(dir, "_log");
    const write = (path: string, bytes: Uint8Array) => {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), bytes);
    };
    for (const [path, bytes] of publisherFiles) write(path, bytes);
    assert.equal((await openLog(folder)).ok, true);
    await holds(
      "content/_log/",
      fc.asyncProperty(damagedFile(publisherFiles), async ([path, bytes]) => {
        write(path, bytes);
        const opened = await openLog(folder);
        write(path, publisherFiles.get(path)!);
        assert.ok(opened.ok || (typeof opened.file === "string" && opened.reason !== ""), `${path}: ${excerpt(bytes)}`);
      }),
      50,
    );
  });

  it("monitor audits the served log or fails with a log/* rule", async () => {
    const server = await serveLogFiles(new Map(log.files));
    after(() => server.stop());
    const logUrl = `${server.url}${LOG_PREFIX}/`;
    assert.equal((await monitorLog(logUrl, keyOnly(log.signer), undefined)).ok, true);
    await holds(
      "monitor",
      fc.asyncProperty(damagedFile(log.files), async ([path, bytes]) => {
        server.files = new Map([...log.files, [path, bytes]]);
        const monitored = await monitorLog(logUrl, keyOnly(log.signer), undefined);
        assert.ok(
          monitored.ok || monitored.rule === undefined || isRuleId(monitored.rule),
          `${path}: ${excerpt(bytes)}`,
        );
      }),
      80,
    );
  });
});
