/**
 * `manifest-resolver monitor`: audit the transparency log a resolver serves, hold it to the
 * checkpoint saved from the last run, and print the UMIDs whose state changed since.
 */
import { readFile } from "node:fs/promises";
import { encodeBase64, utf8 } from "../../core/base64url.ts";
import { baseUrlProblem } from "../../core/http/base-url.ts";
import type { Checkpoint } from "../../core/tlog/checkpoint.ts";
import type { LogPolicy } from "../../core/tlog/log-policy.ts";
import { openWitnessedCheckpoint } from "../../core/tlog/witnessed-checkpoint.ts";
import { parseLogEntry } from "../../core/tlog/log-entry.ts";
import { parseVerifierKey } from "../../core/tlog/note-keys.ts";
import { logUrlOf } from "../../core/umid-path.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { type Monitored, monitorLog } from "../log/monitor-log.ts";
import { diagnostic, printable } from "../report/diagnostics.ts";
import { formatDiagnostic } from "../report/text.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { logPolicyOption } from "./log-policy-option.ts";
import type { monitor } from "./monitor-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

export const runMonitor: CommandRun<typeof monitor> = async (values, [base]) => {
  const problem = baseUrlProblem(base);
  if (problem !== undefined) throw new UsageError(`BASE ${problem}`);
  const given = values["log-key"];
  const read = logPolicyOption(values, given === undefined ? undefined : await verifierKey(given));
  if (read === undefined) throw new UsageError("--log-key VKEY or --log-policy FILE is required");
  const { policy } = read;
  const now = Date.now();
  const stateFile = values.state;
  const saved = stateFile === undefined ? undefined : await savedCheckpoint(stateFile, policy, now);
  const logUrl = logUrlOf(base);
  const json = values.json === true;
  const maxAge = values["max-cosignature-age"];
  const result = await monitorLog(logUrl, { policy, now, ...(maxAge !== undefined && { maxAge }) }, saved);
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
    // The witnesses counted only under a policy of the user's: a key alone has none.
    const witnessed = read.text === undefined ? {} : { witnessed: result.witnessed };
    console.log(JSON.stringify({ ok: true, checkpoint, since, changes: listed, notLogged, ...witnessed }));
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
};

/** A failure: one line on stderr (with its rule, if it is the log's), or the --json object on stdout. */
function printFailure(failure: Extract<Monitored, { ok: false }>, json: boolean): void {
  const url = "url" in failure ? failure.url : undefined;
  const { rule, message } = failure;
  if (json) console.log(JSON.stringify({ ok: false, rule: rule ?? null, url: url ?? null, message }));
  else if (rule === undefined || url === undefined) console.error(printable(`manifest-resolver: ${message}`));
  else console.error(formatDiagnostic(diagnostic(rule, { file: url }, message)));
}

/** The key VKEY is, or the one in the file it names, as text. */
async function verifierKey(given: string): Promise<string> {
  if (parseVerifierKey(given) !== undefined) return given;
  const text = await readFile(given, "utf8").catch((error: Error) => {
    throw new UsageError(
      `--log-key '${given}' is neither a verifier key (<origin>+<keyid>+<key>) nor a file: ${error.message}`,
    );
  });
  if (parseVerifierKey(text.trimEnd()) === undefined)
    throw new UsageError(`--log-key ${given} does not hold a signed-note Ed25519 verifier key`);
  return text.trimEnd();
}

/**
 * The checkpoint FILE holds, once it verifies with the key of one of the policy's logs; undefined when there is no FILE
 * yet. Its cosignatures are not asked for: it was cosigned enough when it was saved, and has grown old since.
 */
async function savedCheckpoint(file: string, policy: LogPolicy, now: number): Promise<Checkpoint | undefined> {
  let note: Uint8Array;
  try {
    note = new Uint8Array(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`--state ${file} cannot be read: ${(error as Error).message}`);
  }
  const opened = await openWitnessedCheckpoint(note, { ...policy, quorum: { kind: "none" } }, { now });
  if (!opened.ok) {
    const names = policy.logs.map(({ key }) => key.name).join(", ");
    // With a quorum of none, only the log's signature can fail.
    const detail = opened.reason === "unsigned" ? opened.detail : opened.reason;
    throw new UsageError(`--state ${file} holds no checkpoint of the log ${names} (${detail})`);
  }
  return opened.checkpoint;
}

/** A log entry's state in one word: `active:<sha256>`, `revoked`, `redirected:<location>`; `-` for none. */
function stateText(entry: string | undefined): string {
  if (entry === undefined) return "-";
  const parsed = parseLogEntry(utf8(entry))!;
  if (parsed.state === "revoked") return parsed.state;
  return `${parsed.state}:${parsed.state === "redirected" ? parsed.location : parsed.sha256}`;
}
