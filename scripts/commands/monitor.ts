/**
 * `manifest-resolver monitor`: audit the transparency log a resolver serves, hold it to the
 * checkpoint saved from the last run, and print the UMIDs whose state changed since.
 */
import { readFile } from "node:fs/promises";
import { encodeBase64, utf8 } from "../../core/base64url.ts";
import { baseUrlProblem } from "../../core/client/base-url.ts";
import { type Checkpoint, openCheckpoint } from "../../core/tlog/checkpoint.ts";
import { parseLogEntry } from "../../core/tlog/log-entry.ts";
import { type NoteKey, parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { LOG_PREFIX, logUrlOf } from "../../core/umid-path.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { type Monitored, monitorLog } from "../log/monitor-log.ts";
import { diagnostic, printable } from "../report/diagnostics.ts";
import { formatDiagnostic } from "../report/text.ts";
import { defineCommand, EXIT_FAILED, EXIT_OK, UsageError } from "./command.ts";
import { booleanOption, listOption, stringOption } from "./options.ts";

export const monitor = defineCommand({
  name: "monitor",
  description: `Audits the transparency log the resolver at BASE serves at
BASE${LOG_PREFIX}/ (C2SP tlog-tiles): its checkpoint must
verify with the log's key, every entry bundle and tile must hash to the checkpoint's
root (the tiles first, then each bundle against its tile as it arrives, so that a host
that inflates bundles is refused at the first), no state may follow a UMID's logged
revocation (revocation is permanent), and the latest map (which entry is each UMID's
latest) must be the one the entries make, in the checkpoint and in every bucket file
served. With --state, the checkpoint
must also be consistent with the one the last run saved: the log only grew, the old tree
a prefix of the new one. Then it saves the new checkpoint to FILE, and prints one line per
UMID whose latest entry changed since the saved checkpoint (every UMID on a first run):
the UMID, its old state and its new one. A state is 'active:<sha256>' or
'suspended:<sha256>' (the SHA-256 of the served body), 'revoked', 'redirected:<location>',
or '-' for none. A last line gives the checkpoint's size and root.

Run it on a schedule against production: a split view (another history shown to this
monitor than before) or a rewritten log then fails the run, and every change of state is
seen by someone other than the publisher.`,
  epilogue: `Output:
  urn:uuid:…  - -> active:Ktd9…
  urn:uuid:…  active:Ktd9… -> revoked
  https://resolver.example/…/log/checkpoint verified: size 8, root …; 2 UMIDs changed since size 6

An inconsistency prints one line on stderr naming the file at fault and its rule
(log/bad-checkpoint, log/tile-mismatch, log/map-mismatch, log/inconsistent,
log/revocation-undone; see 'manifest-resolver explain RULE'), and FILE is left as it was.

Exit status: 0 the log verified (FILE saved), 1 an inconsistency, an answer other than 200
or 404, no answer, or FILE not saved, 2 usage error.

Examples:
  manifest-resolver monitor https://resolver.example --log-key "$LOG_VKEY" --state log.checkpoint
  manifest-resolver monitor https://resolver.example --log-key ./log-verifier --umid urn:example:alice`,
  positionals: [{ name: "BASE", required: true }],
  options: {
    "log-key": stringOption({
      value: "VKEY",
      help:
        "the log's signed-note verifier key, <origin>+<keyid>+<key>, or a file holding it (the log's " +
        "content/_log/verifier); its name is the log's origin",
      required: true,
    }),
    state: stringOption({
      value: "FILE",
      help:
        "the checkpoint saved by the last run (none yet: a first run): the log must be consistent with it; " +
        "replaced by the new checkpoint once the log verifies",
      default: { text: "every run is a first run" },
    }),
    umid: listOption({
      value: "UMID",
      help: "print only this UMID's change (repeatable), or that the log has no entry for it",
    }),
    json: booleanOption({
      help:
        'print one JSON object on stdout instead: {"ok": true, "checkpoint": {"size", "root"}, "since", ' +
        '"changes": [{"umid", "before", "after"}], "notLogged": [UMID]} (before and after: log entries, before ' +
        'null for none), or {"ok": false, "rule", "url", "message"} (rule and url null when the log is not at fault)',
      default: { text: "lines of text" },
    }),
  },
  async run(values, [base]) {
    const problem = baseUrlProblem(base);
    if (problem !== undefined) throw new UsageError(`BASE ${problem}`);
    const key = await verifierKey(values["log-key"]);
    const stateFile = values.state;
    const saved = stateFile === undefined ? undefined : await savedCheckpoint(stateFile, key);
    const logUrl = logUrlOf(base);
    const json = values.json === true;
    const result = await monitorLog(logUrl, key, saved);
    if (!result.ok) {
      printFailure(result, json);
      if (stateFile !== undefined && !json)
        console.error(printable(`manifest-resolver: ${stateFile} was left unchanged`));
      return EXIT_FAILED;
    }
    if (stateFile !== undefined) {
      const failure = await writeFileAtomically(stateFile, result.signedCheckpoint).then(
        () => undefined,
        (error: Error) => error.message,
      );
      if (failure !== undefined) {
        const message = `--state ${stateFile}: the checkpoint was not saved: ${failure}`;
        printFailure({ ok: false, rule: undefined, message }, json);
        return EXIT_FAILED;
      }
    }
    const watched = [...new Set(values.umid)];
    const changes = result.changes.filter(({ umid }) => watched.length === 0 || watched.includes(umid));
    const notLogged = watched.filter((umid) => !result.latest.has(umid));
    const { size, rootHash } = result.checkpoint;
    const since = saved?.size ?? 0;
    if (json) {
      const entry = (text: string | undefined) => (text === undefined ? null : parseLogEntry(utf8(text)));
      const listed = changes.map(({ umid, before, after }) => ({ umid, before: entry(before), after: entry(after) }));
      const checkpoint = { size, root: encodeBase64(rootHash) };
      console.log(JSON.stringify({ ok: true, checkpoint, since, changes: listed, notLogged }));
      return EXIT_OK;
    }
    for (const { umid, before, after } of changes)
      console.log(printable(`${umid}  ${stateText(before)} -> ${stateText(after)}`));
    for (const umid of notLogged) console.log(printable(`${umid}  not in the log`));
    const umids = `${watched.length === 0 ? "" : "watched "}${changes.length === 1 ? "UMID" : "UMIDs"}`;
    console.log(
      printable(
        `${logUrl}checkpoint verified: size ${size}, root ${encodeBase64(rootHash)}; ` +
          `${changes.length} ${umids} changed since size ${since}`,
      ),
    );
    return EXIT_OK;
  },
});

/** A failure: one line on stderr (with its rule, if it is the log's), or the --json object on stdout. */
function printFailure(failure: Extract<Monitored, { ok: false }>, json: boolean): void {
  const url = "url" in failure ? failure.url : undefined;
  const { rule, message } = failure;
  if (json) console.log(JSON.stringify({ ok: false, rule: rule ?? null, url: url ?? null, message }));
  else if (rule === undefined || url === undefined) console.error(printable(`manifest-resolver: ${message}`));
  else console.error(formatDiagnostic(diagnostic(rule, { file: url }, message)));
}

/** The key VKEY is, or the one in the file it names. */
async function verifierKey(given: string): Promise<NoteKey> {
  const key = parseVerifierKey(given);
  if (key !== undefined) return key;
  const text = await readFile(given, "utf8").catch((error: Error) => {
    throw new UsageError(
      `--log-key '${given}' is neither a verifier key (<origin>+<keyid>+<key>) nor a file: ${error.message}`,
    );
  });
  const read = parseVerifierKey(text.trimEnd());
  if (read === undefined) throw new UsageError(`--log-key ${given} does not hold a signed-note Ed25519 verifier key`);
  return read;
}

/** The checkpoint FILE holds, once it verifies with the log's key; undefined when there is no FILE yet. */
async function savedCheckpoint(file: string, key: NoteKey): Promise<Checkpoint | undefined> {
  let note: Uint8Array;
  try {
    note = new Uint8Array(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`--state ${file} cannot be read: ${(error as Error).message}`);
  }
  const opened = await openCheckpoint(note, key, key.name);
  if (!opened.ok) throw new UsageError(`--state ${file} holds no checkpoint of the log ${key.name} (${opened.reason})`);
  return opened.checkpoint;
}

/** A log entry's state in one word: `active:<sha256>`, `revoked`, `redirected:<location>`; `-` for none. */
function stateText(entry: string | undefined): string {
  if (entry === undefined) return "-";
  const parsed = parseLogEntry(utf8(entry))!;
  if (parsed.state === "revoked") return parsed.state;
  return `${parsed.state}:${parsed.state === "redirected" ? parsed.location : parsed.sha256}`;
}
