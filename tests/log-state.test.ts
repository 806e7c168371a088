/**
 * The log's verified state (issue 38, section 3): `log`, the gate and the build open the log from the state an earlier
 * run kept, reading only what was added since, and open it exactly as a whole audit does, whatever happened to the log
 * or the state in between: appends, a tampered old tile or bundle, a replaced log folder, a rolled-back checkpoint, a
 * damaged state. A state is as trusted as the cache it is in (docs/security.md): one written by hand, its digest
 * recomputed, is believed, as the test of what a state spares shows.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { encodeBase64, utf8 } from "../core/base64url.ts";
import { appendEntries } from "../core/tlog/append.ts";
import { signCheckpoint } from "../core/tlog/checkpoint.ts";
import { extendedLatestMap, formatLatestLine } from "../core/tlog/latest-map.ts";
import { formatLogEntry, parseLogEntry } from "../core/tlog/log-entry.ts";
import { cosign } from "../core/tlog/cosignature.ts";
import { formatNote, parseNote } from "../core/tlog/note.ts";
import { COSIGNATURE_TYPE, formatVerifierKey } from "../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../core/tlog/note-signature.ts";
import { emptyCheckpoint, fileTileStore, type OpenedLog, openLog, writeLog } from "../scripts/log/log-folder.ts";
import { decodeLogState, encodeLogState, fileDigest, logStateKey } from "../scripts/log/log-state.ts";
import { publishedLog } from "../scripts/log/published-log.ts";
import { logStates, type StateStore } from "../scripts/log/state-store.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-log-state-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A new log folder and a cache folder of its own. */
function newLog(): { dir: string; cache: string } {
  folders++;
  return { dir: join(scratch, `log-${folders}`, "_log"), cache: join(scratch, `cache-${folders}`) };
}

const signers = new Map<number, NoteSigner>();
async function signer(seed = 1): Promise<NoteSigner> {
  if (!signers.has(seed))
    signers.set(seed, (await ed25519Signer({ name: "log.example/log", seed: new Uint8Array(32).fill(seed) }))!);
  return signers.get(seed)!;
}

/** An entry for UMID `urn:<n>`, its body `version`'s. */
function entry(n: number, version = 0): Uint8Array {
  const sha256 = encodeBase64(utf8(`body ${n} ${version}`.padEnd(32, ".")))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
  return formatLogEntry({ umid: `urn:${n}`, state: "active", sha256 });
}

/**
 * Appends `entries` to the log in `dir` as `manifest-resolver log` does, signed by `by`; `killed`: as a run killed
 * before its checkpoint, which wrote the tiles and bundles only.
 */
async function append(dir: string, entries: Uint8Array[], by: NoteSigner, killed = false): Promise<void> {
  const opened = await openLog(dir);
  assert.ok(opened.ok, JSON.stringify(opened));
  const old = opened.checkpoint ?? emptyCheckpoint(by.name);
  const appended = await appendEntries(fileTileStore(dir), old.size, entries);
  if (killed) {
    for (const [path, bytes] of appended.files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), bytes);
    }
    return;
  }
  const umids = entries.map((bytes) => parseLogEntry(bytes)!.umid);
  const map = await extendedLatestMap(opened.map, umids, old.size);
  const checkpoint = {
    origin: by.name,
    size: appended.size,
    rootHash: appended.rootHash,
    extensions: [formatLatestLine(map)],
  };
  const verifier = opened.key === undefined ? formatVerifierKey(by.name, by.publicKey) : undefined;
  await writeLog(dir, old.size, appended.files, await signCheckpoint(checkpoint, by), verifier);
}

const range = (from: number, to: number, version = 0) =>
  Array.from({ length: to - from }, (_, i) => entry(from + i, version));

/** What an opened log says and serves, to compare a warm opening with a cold one. */
async function view(dir: string, opened: OpenedLog): Promise<unknown> {
  if (!opened.ok) return opened;
  const { checkpoint, map, logged } = opened;
  const published = await publishedLog(dir, opened);
  return {
    checkpoint,
    latest: [...logged.latest].sort(([a], [b]) => (a < b ? -1 : 1)),
    map: map && { bits: map.bits, root: encodeBase64(map.root), count: map.count, buckets: map.buckets },
    published: [...published].map(([path, bytes]) => [path, encodeBase64(bytes)]).sort(),
  };
}

/** Opens the log in `dir` warm (from the state in `cache`) and cold, asserts they agree, and returns the warm one. */
async function agree(dir: string, states: StateStore): Promise<OpenedLog> {
  const warm = await openLog(dir, states);
  const cold = await openLog(dir);
  assert.deepEqual(await view(dir, warm), await view(dir, cold));
  return warm;
}

async function statesIn(cache: string): Promise<StateStore> {
  return logStates(cache);
}

/** The file of the state of the log in `dir`. */
function stateFile(dir: string, cache: string): string {
  return join(cache, "log", logStateKey(readFileSync(join(dir, "verifier"))));
}

/**
 * Tampers the log's first full entry bundle and writes its new digest into the log's kept state: a tampered old bundle
 * that only a run trusting the state would take for the log's.
 */
async function tamperFirstBundleAndState(dir: string, cache: string): Promise<void> {
  const state = (await decodeLogState(readFileSync(stateFile(dir, cache))))!;
  const old = "tile/entries/000";
  tamper(dir, old);
  state.files.set(old, fileDigest(readFileSync(join(dir, old))));
  writeFileSync(stateFile(dir, cache), encodeLogState(state));
}

/** Changes one character of the entry text in the bundle at `path`, keeping its length: a tampered entry. */
function tamper(dir: string, path: string): void {
  const file = join(dir, path);
  const text = readFileSync(file, "latin1");
  const at = text.indexOf('"sha256":"') + 12;
  writeFileSync(file, text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1), "latin1");
}

describe("the log's verified state (issue 38, section 3)", () => {
  it("opens the log after appends from the state, as a whole audit does, and keeps the state of the latest", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 200), by);
    assert.ok((await agree(dir, states)).ok);
    const first = readFileSync(stateFile(dir, cache));
    // Across a full tile and past 256 UMIDs, so the map doubles its buckets; then new states of logged UMIDs.
    await append(dir, range(200, 300), by);
    assert.ok((await agree(dir, states)).ok);
    await append(dir, [...range(10, 15, 1), ...range(300, 303)], by);
    const opened = await agree(dir, states);
    assert.ok(opened.ok);
    assert.equal(opened.checkpoint?.size, 308);
    assert.equal(opened.map?.bits, 1);
    const state = await decodeLogState(readFileSync(stateFile(dir, cache)));
    assert.ok(state);
    assert.notDeepEqual(readFileSync(stateFile(dir, cache)), first);
    assert.equal(state.latest.get("urn:12"), Buffer.from(entry(12, 1)).toString());
    // Nothing changed: the state is used as it is.
    assert.ok((await agree(dir, states)).ok);
  });

  it("reads only the files the log added since its state, besides hashing the others", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 600), by);
    assert.ok((await openLog(dir, states)).ok);
    await append(dir, range(600, 610), by);
    // The old full bundles are hashed, not parsed: an old bundle of entries that are no log's entries, with a state
    // that fits it, is not read as entries. Only a run that trusts the state behaves so.
    await tamperFirstBundleAndState(dir, cache);
    const warm = await openLog(dir, states);
    assert.ok(warm.ok, "a state whose digest fits is believed");
    assert.equal(warm.checkpoint?.size, 610);
    assert.equal((await openLog(dir)).ok, false, "the whole audit finds the tampered bundle");
  });

  it("opens a checkpoint witnesses cosigned since from the state: the tree is the same, and so is the state", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 300), by);
    assert.ok((await openLog(dir, states)).ok);
    // A witness's cosignature appended, as log does: the file changes, its signed text does not.
    const file = join(dir, "checkpoint");
    const note = parseNote(readFileSync(file))!;
    const witness = (await ed25519Signer({ name: "w.example", seed: new Uint8Array(32).fill(9) }, COSIGNATURE_TYPE))!;
    const cosigned = formatNote({ ...note, signatures: [...note.signatures, await cosign(note.text, witness, 1e9)] });
    writeFileSync(file, cosigned);
    // As in the test above: a tampered old bundle whose digest the state holds is believed only on the warm path.
    await tamperFirstBundleAndState(dir, cache);
    const warm = await openLog(dir, states);
    assert.ok(warm.ok, "the state of the same tree is used");
    assert.equal(Buffer.from(warm.signedCheckpoint!).toString(), cosigned);
    const kept = (await decodeLogState(readFileSync(stateFile(dir, cache))))!;
    assert.equal(Buffer.from(kept.signedCheckpoint).toString(), cosigned);
  });

  it("refuses a tampered old tile or bundle as the whole audit does, though the state was made before", async () => {
    // A full bundle and tile, a level 1 tile of the state's size and now, and a bundle of the state's size now earlier.
    for (const path of ["tile/entries/000", "tile/0/001", "tile/1/000.p/2", "tile/entries/002.p/88"]) {
      const { dir, cache } = newLog();
      const states = await statesIn(cache);
      const by = await signer();
      await append(dir, range(0, 600), by);
      assert.ok((await openLog(dir, states)).ok);
      await append(dir, range(600, 620), by);
      if (path.startsWith("tile/entries")) tamper(dir, path);
      else {
        const bytes = readFileSync(join(dir, path));
        bytes[5]! ^= 1;
        writeFileSync(join(dir, path), bytes);
      }
      const opened = await agree(dir, states);
      assert.equal(opened.ok, false, path);
    }
  });

  it("opens a replaced log folder and a rolled-back checkpoint as the whole audit does", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 100), by);
    const before = join(scratch, "before-rollback");
    cpSync(dir, before, { recursive: true });
    assert.ok((await openLog(dir, states)).ok);
    await append(dir, range(100, 150), by);
    assert.ok((await openLog(dir, states)).ok);
    // Rolled back: the older checkpoint over the files now.
    cpSync(join(before, "checkpoint"), join(dir, "checkpoint"));
    assert.ok((await agree(dir, states)).ok);
    // Replaced: another log of the same key, of more entries, in its place.
    const other = join(scratch, "other", "_log");
    await append(other, range(1000, 1200), by);
    rmSync(dir, { recursive: true });
    cpSync(other, dir, { recursive: true });
    assert.ok((await agree(dir, states)).ok);
    // Replaced by one that does not verify: another key's checkpoint over these tiles.
    cpSync(before, dir, { recursive: true });
    await append(join(scratch, "third", "_log"), range(0, 100), await signer(2));
    cpSync(join(scratch, "third", "_log", "checkpoint"), join(dir, "checkpoint"));
    assert.equal((await agree(dir, states)).ok, false);
  });

  it("opens a log that a killed append left files past, once another append of other entries follows", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 300), by);
    assert.ok((await openLog(dir, states)).ok);
    // Killed before its checkpoint: tile 1's hashes and bundle at width 50, of entries the next run never appends.
    await append(dir, range(900, 906), by, true);
    assert.ok((await agree(dir, states)).ok, "files past the checkpoint's tree are no part of its log");
    await append(dir, range(300, 400), by);
    const opened = await agree(dir, states);
    assert.ok(opened.ok, JSON.stringify(opened));
    assert.equal(opened.checkpoint?.size, 400);
  });

  it("keeps no temporary a killed run left in the folder of states, once it is stale", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    await append(dir, range(0, 10), await signer());
    assert.ok((await openLog(dir, states)).ok);
    const folder = join(cache, "log");
    const [state] = readdirSync(folder);
    const left = [`.${state}.0123456789ab.tmp`, `.${state}.ba9876543210.tmp`];
    for (const name of left) writeFileSync(join(folder, name), "half a state");
    const old = (Date.now() - 3700_000) / 1000;
    utimesSync(join(folder, left[0]!), old, old);
    await append(dir, range(10, 20), await signer());
    assert.ok((await openLog(dir, states)).ok);
    assert.deepEqual(readdirSync(folder).sort(), [left[1], state].sort());
  });

  it("audits the whole log when the state is damaged, truncated or foreign", async () => {
    const { dir, cache } = newLog();
    const states = await statesIn(cache);
    const by = await signer();
    await append(dir, range(0, 270), by);
    assert.ok((await openLog(dir, states)).ok);
    await append(dir, range(270, 280), by);
    const file = stateFile(dir, cache);
    const good = readFileSync(file);
    const damaged = Buffer.from(good);
    damaged[good.length - 40]! ^= 1;
    for (const bytes of [damaged, good.subarray(0, good.length - 100), Buffer.from("{}")]) {
      writeFileSync(file, bytes);
      const bundle = readFileSync(join(dir, "tile/entries/000"));
      tamper(dir, "tile/entries/000");
      assert.equal((await agree(dir, states)).ok, false);
      writeFileSync(join(dir, "tile/entries/000"), bundle);
      assert.ok((await agree(dir, states)).ok);
    }
  });
});
