/**
 * Transparency log policies (C2SP tlog-policy): the logs a client accepts, the witnesses
 * it knows, and the quorum of them whose cosignatures a checkpoint needs. One line each:
 * `log <vkey> [<url>]`, `witness <name> <vkey> [<url>]`, `group <name> all|any|<k>
 * <name>...`, `quorum <name>` (exactly one; `none` asks for no cosignature). A group or
 * the quorum names only what earlier lines defined, so a policy has no cycle. Parsing is
 * strict: the first line that breaks the format is reported, by line and column, and no
 * policy comes of it.
 */
import { COSIGNATURE_TYPE, type NoteKey, parseVerifierKey, verifierKeyType } from "./note-keys.ts";

export interface PolicyLog {
  key: NoteKey;
  url?: string;
}

export interface PolicyWitness {
  name: string;
  /** A cosigner key (tlog-cosignature, type 0x04). */
  key: NoteKey;
  url?: string;
}

/** What a checkpoint's cosignatures must satisfy: nothing, one witness, or k of a group's members. */
export type Quorum =
  | { kind: "none" }
  | { kind: "witness"; name: string }
  | { kind: "group"; name: string; threshold: number; members: Quorum[] };

export interface LogPolicy {
  logs: PolicyLog[];
  witnesses: PolicyWitness[];
  quorum: Quorum;
}

export type ParsedPolicy =
  | { ok: true; policy: LogPolicy }
  /** `line` and `column` from 1. */
  | { ok: false; line: number; column: number; message: string };

/** Past these a policy is refused: tlog-policy asks for 32 of each at least. */
const MAX_ENTRIES = 256;

/** Tab, newline, printable ASCII, and any octet with its high bit set; nothing else. */
const DISALLOWED = /[\u0000-\u0008\u000b-\u001f\u007f]/;

class PolicyError extends Error {
  constructor(
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The policy in `text`, or the first fault, where it is. `logsOnly`: a list of logs, as a witness is configured
 * with, in the same syntax: `log` lines alone, and no quorum.
 */
export function parseLogPolicy(text: string, { logsOnly = false } = {}): ParsedPolicy {
  const logs: PolicyLog[] = [];
  const witnesses: PolicyWitness[] = [];
  const named = new Map<string, Quorum>([["none", { kind: "none" }]]);
  // tlog-policy: each name is a group member at most once in the whole policy, so a witness counts one way only.
  const members = new Set<string>();
  let quorum: Quorum | undefined;
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    try {
      const bad = DISALLOWED.exec(line);
      if (bad) throw new PolicyError(bad.index + 1, `U+${hex(bad[0])} is not allowed in a policy`);
      const words = wordsOf(line);
      const [keyword, ...rest] = words;
      if (keyword === undefined || keyword.text.startsWith("#")) continue;
      const expect = (count: number, most = count) => {
        if (rest.length < count) throw new PolicyError(line.length + 1, `"${keyword.text}" needs ${count} item(s)`);
        if (rest.length > most) throw new PolicyError(rest[most]!.column, `"${keyword.text}" takes ${most} item(s)`);
      };
      if (keyword.text === "log") {
        expect(1, 2);
        const key = keyOf(rest[0]!, "log");
        if (logs.some((log) => sameKey(log.key, key))) throw new PolicyError(rest[0]!.column, "a log listed twice");
        logs.push({ key, ...(rest[1] && { url: rest[1].text }) });
      } else if (logsOnly) {
        throw new PolicyError(keyword.column, `"${keyword.text}" is not a line of a list of logs: only log lines are`);
      } else if (keyword.text === "witness") {
        expect(2, 3);
        const name = newName(named, rest[0]!);
        const key = keyOf(rest[1]!, "witness");
        if (witnesses.some((witness) => sameKey(witness.key, key)))
          throw new PolicyError(rest[1]!.column, "a witness listed twice, under another name");
        witnesses.push({ name, key, ...(rest[2] && { url: rest[2].text }) });
        named.set(name, { kind: "witness", name });
      } else if (keyword.text === "group") {
        expect(3, Number.POSITIVE_INFINITY);
        const name = newName(named, rest[0]!);
        const group = rest.slice(2).map((member) => {
          if (member.text === "none") throw new PolicyError(member.column, '"none" cannot be a group member');
          if (members.has(member.text))
            throw new PolicyError(member.column, `"${member.text}" is a group member already: a name is one at most`);
          members.add(member.text);
          return definedName(named, member);
        });
        named.set(name, { kind: "group", name, threshold: thresholdOf(rest[1]!, group.length), members: group });
      } else if (keyword.text === "quorum") {
        expect(1);
        if (quorum !== undefined) throw new PolicyError(keyword.column, "a policy has one quorum line");
        quorum = definedName(named, rest[0]!);
      } else {
        throw new PolicyError(keyword.column, `"${keyword.text}" is not a policy line (log, witness, group, quorum)`);
      }
      if (logs.length > MAX_ENTRIES || witnesses.length > MAX_ENTRIES || named.size > 2 * MAX_ENTRIES + 1)
        throw new PolicyError(1, `a policy of more than ${MAX_ENTRIES} logs, witnesses or groups`);
    } catch (error) {
      if (!(error instanceof PolicyError)) throw error;
      return { ok: false, line: i + 1, column: error.column, message: error.message };
    }
  }
  if (logsOnly) return { ok: true, policy: { logs, witnesses, quorum: { kind: "none" } } };
  if (quorum === undefined)
    return { ok: false, line: lines.length, column: 1, message: "no quorum line (quorum none asks for none)" };
  return { ok: true, policy: { logs, witnesses, quorum } };
}

/** The policy of a log key alone: that log, no witness, a quorum of none. */
export function keyOnlyPolicy(key: NoteKey): LogPolicy {
  return { logs: [{ key }], witnesses: [], quorum: { kind: "none" } };
}

/** Whether witnesses by these names, having cosigned, satisfy `quorum`. */
export function quorumMet(quorum: Quorum, cosigned: ReadonlySet<string>): boolean {
  if (quorum.kind === "none") return true;
  if (quorum.kind === "witness") return cosigned.has(quorum.name);
  return quorum.members.filter((member) => quorumMet(member, cosigned)).length >= quorum.threshold;
}

/** The witnesses of `quorum` that have not cosigned, in policy order, each once. */
export function missingWitnesses(quorum: Quorum, cosigned: ReadonlySet<string>): string[] {
  if (quorum.kind === "none") return [];
  if (quorum.kind === "witness") return cosigned.has(quorum.name) ? [] : [quorum.name];
  return [...new Set(quorum.members.flatMap((member) => missingWitnesses(member, cosigned)))];
}

/** How many of the witnesses a quorum counts have cosigned, and of how many: "2 of 3". */
export function quorumCount(quorum: Quorum, cosigned: ReadonlySet<string>): { cosigned: number; of: number } {
  const names = new Set<string>();
  const walk = (node: Quorum): void => {
    if (node.kind === "witness") names.add(node.name);
    if (node.kind === "group") node.members.forEach(walk);
  };
  walk(quorum);
  return { cosigned: [...names].filter((name) => cosigned.has(name)).length, of: names.size };
}

interface Word {
  text: string;
  column: number;
}

/** The items of a line, split on spaces and tabs only. */
function wordsOf(line: string): Word[] {
  return [...line.matchAll(/[^ \t]+/g)].map((match) => ({ text: match[0], column: match.index + 1 }));
}

function keyOf(word: Word, role: "log" | "witness"): NoteKey {
  const type = role === "log" ? undefined : COSIGNATURE_TYPE;
  const key = parseVerifierKey(word.text, type);
  if (key !== undefined) return key;
  const found = verifierKeyType(word.text);
  const wanted = role === "log" ? "an Ed25519 signed-note key (type 0x01)" : "an Ed25519 cosigner key (type 0x04)";
  throw new PolicyError(
    word.column,
    found === undefined
      ? `not a verifier key <name>+<key ID>+<key>: a ${role} needs ${wanted}`
      : `a key of type 0x${found.toString(16).padStart(2, "0")}, or whose key ID is not its own: a ${role} needs ${wanted}`,
  );
}

function newName(named: ReadonlyMap<string, Quorum>, word: Word): string {
  if (named.has(word.text)) throw new PolicyError(word.column, `"${word.text}" is defined already`);
  return word.text;
}

function definedName(named: ReadonlyMap<string, Quorum>, word: Word): Quorum {
  const found = named.get(word.text);
  if (found === undefined) throw new PolicyError(word.column, `"${word.text}" is not defined on a line before`);
  return found;
}

function thresholdOf(word: Word, members: number): number {
  if (word.text === "all") return members;
  if (word.text === "any") return 1;
  const k = /^[1-9][0-9]{0,5}$/.test(word.text) ? Number(word.text) : 0;
  if (k < 1 || k > members)
    throw new PolicyError(word.column, `the threshold must be all, any, or a number from 1 to ${members}`);
  return k;
}

function sameKey(a: NoteKey, b: NoteKey): boolean {
  return a.publicKey.every((byte, i) => byte === b.publicKey[i]);
}

const hex = (char: string) => char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
