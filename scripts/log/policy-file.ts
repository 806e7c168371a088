/**
 * The log's witness policy, `content/_log/policy` (issue 41): a C2SP tlog-policy file naming the witnesses that must
 * cosign the log's checkpoints (`witness <name> <cosigner key> <submission URL>`), optional groups, and one `quorum`
 * line. `log` asks its witnesses (witness-client.ts); `check` and `build` refuse a checkpoint without the quorum
 * (log-gate.ts). It may carry a `log` line, so that the publisher can hand relying parties the same file as their
 * policy; that line must then be the log's own key (content/_log/verifier), and without one the log's key is added.
 * Like the verifier, it is trust state: the build does not serve it (log-output.ts), and `check --base` warns when it
 * changes (log-history.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type LogPolicy, parseLogPolicy } from "../../core/tlog/log-policy.ts";
import { formatVerifierKey, type NoteKey } from "../../core/tlog/note-keys.ts";
import { displayPath } from "../read/files.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

export const POLICY_FILE = "policy";

/**
 * The policy read: undefined when the log has no policy file. `text`: the policy as a relying party's client takes it
 * (the lookup page's): the file's text, after a `log` line of the log's key when the file names no log.
 */
export type ReadPolicy = { ok: true; policy: LogPolicy; text: string } | { ok: false; problem: Diagnostic } | undefined;

/** The policy in the log folder `logDir`, for the log of `key` (undefined: a log not yet made). */
export async function readLogPolicy(logDir: string, key: NoteKey | undefined): Promise<ReadPolicy> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(logDir, POLICY_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return logPolicyOf(bytes, displayPath(join(logDir, POLICY_FILE)), key);
}

/** The policy in `bytes`, the file shown as `file`, for the log of `key`. */
function logPolicyOf(bytes: Uint8Array, file: string, key: NoteKey | undefined): ReadPolicy {
  const bad = (message: string, at?: { line: number; column: number }) => ({
    ok: false as const,
    problem: diagnostic("log/bad-policy", { file, ...at }, message),
  });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return bad("not UTF-8 text");
  }
  const parsed = parseLogPolicy(text);
  if (!parsed.ok) return bad(parsed.message, { line: parsed.line, column: parsed.column });
  const { policy } = parsed;
  const [first, second] = policy.logs;
  if (second !== undefined) return bad("it names more than one log: a log's policy names that log alone");
  if (first !== undefined && key !== undefined && !sameKey(first.key, key))
    return bad(`its log line is not this log's key (${file.replace(/policy$/, "verifier")})`);
  if (first !== undefined || key === undefined) return { ok: true, policy, text };
  const logLine = `log ${formatVerifierKey(key.name, key.publicKey)}\n`;
  return { ok: true, policy: { ...policy, logs: [{ key }] }, text: logLine + text };
}

function sameKey(a: NoteKey, b: NoteKey): boolean {
  return a.name === b.name && a.keyId === b.keyId && a.publicKey.every((byte, i) => byte === b.publicKey[i]);
}
