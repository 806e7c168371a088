/**
 * A second implementation of the C2SP formats core/tlog writes and reads, written from the
 * spec text alone (signed-note, tlog-cosignature, tlog-witness, tlog-proof, tlog-policy,
 * RFC 6962 §2.1) with node:crypto and Buffer, importing nothing from core/: the tests hold
 * ours against it, both ways, byte for byte. Kept small: the Ed25519 type only, and only
 * what those tests need. Faults are `{ error }` with no prose to match.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify } from "node:crypto";

const sha256 = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
/** Canonical standard base64 (RFC 4648 §4), or undefined: Buffer ignores what it cannot read, so round-trip. */
function base64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? bytes : undefined;
}
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
/** The first empty line of a text split on newlines; what follows its final newline is no line. */
const emptyLine = (lines: string[]) => lines.slice(0, -1).indexOf("");

// signed-note: key ID = SHA-256(key name || 0x0A || signature type || public key)[:4]

export const keyIdOf = (name: string, type: number, publicKey: Buffer): number =>
  sha256(Buffer.from(`${name}\n`), Buffer.from([type]), publicKey).readUInt32BE(0);

/** `<key name>+hex(key ID)+base64(signature type || public key)`. */
export function vkeyOf(name: string, type: number, publicKey: Buffer): string {
  const keyId = keyIdOf(name, type, publicKey).toString(16).padStart(8, "0");
  return `${name}+${keyId}+${Buffer.concat([Buffer.from([type]), publicKey]).toString("base64")}`;
}

export function parseVkey(vkey: string): { name: string; keyId: number; type: number; publicKey: Buffer } | undefined {
  const [name, id, key, ...more] = vkey.split("+");
  // The base64 may hold pluses: rejoin what follows the second.
  const material = base64([key, ...more].join("+"));
  if (!name || !/^[0-9a-f]{8}$/.test(id ?? "") || material === undefined || material.length !== 33) return undefined;
  const parsed = { name, keyId: Number.parseInt(id!, 16), type: material[0]!, publicKey: material.subarray(1) };
  return parsed.keyId === keyIdOf(name, parsed.type, parsed.publicKey) ? parsed : undefined;
}

export interface Ed25519Key {
  publicKey: Buffer;
  sign(message: Buffer): Buffer;
}

/** RFC 8032's key from its 32-byte seed, by way of PKCS #8 (RFC 8410). */
export function ed25519FromSeed(seed: Buffer): Ed25519Key {
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const privateKey = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const publicKey = Buffer.from(createPublicKey(privateKey).export({ format: "jwk" }).x!, "base64url");
  return { publicKey, sign: (message) => sign(null, message, privateKey) };
}

const ed25519Verify = (publicKey: Buffer, message: Buffer, signature: Buffer): boolean => {
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey]);
  return verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), signature);
};

// tlog-cosignature, Ed25519: type 0x04; the signature is u64 timestamp || Ed25519 signature over
// "cosignature/v1\ntime <timestamp>\n" || the checkpoint's note body.

const COSIGNATURE = 0x04;

export const cosignatureMessage = (timestamp: bigint, body: string): Buffer =>
  Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`);

/** The signature line `— <name> base64(key ID || timestamp || signature)\n`. */
export function cosignatureLine(name: string, key: Ed25519Key, body: string, timestamp: bigint): string {
  const head = Buffer.alloc(12);
  head.writeUInt32BE(keyIdOf(name, COSIGNATURE, key.publicKey), 0);
  head.writeBigUInt64BE(timestamp, 4);
  const signature = key.sign(cosignatureMessage(timestamp, body));
  return `\u2014 ${name} ${Buffer.concat([head, signature]).toString("base64")}\n`;
}

/**
 * One signature line checked against one cosigner: "ignored" when its name or key ID is not that cosigner's,
 * else the timestamp if it verifies, else "invalid".
 */
export function checkCosignatureLine(
  line: string,
  cosigner: { name: string; publicKey: Buffer },
  body: string,
): bigint | "ignored" | "invalid" {
  const match = /^\u2014 (\S+) (\S+)\n?$/u.exec(line);
  const bytes = match && base64(match[2]!);
  if (!match || !bytes || bytes.length < 4) return "invalid";
  if (match[1] !== cosigner.name || bytes.readUInt32BE(0) !== keyIdOf(cosigner.name, COSIGNATURE, cosigner.publicKey))
    return "ignored";
  if (bytes.length !== 4 + 8 + 64) return "invalid";
  const timestamp = bytes.readBigUInt64BE(4);
  if (timestamp > 2n ** 63n - 1n) return "invalid";
  return ed25519Verify(cosigner.publicKey, cosignatureMessage(timestamp, body), bytes.subarray(12))
    ? timestamp
    : "invalid";
}

// tlog-witness add-checkpoint: "old <size>\n", zero to 63 base64 hash lines, "\n", the checkpoint.

export interface AddCheckpointBody {
  old: number;
  proof: Buffer[];
  checkpoint: string;
}

export const formatAddCheckpointBody = ({ old, proof, checkpoint }: AddCheckpointBody): string =>
  `old ${old}\n${proof.map((hash) => `${hash.toString("base64")}\n`).join("")}\n${checkpoint}`;

export function parseAddCheckpointBody(body: Buffer): AddCheckpointBody | { error: string } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return { error: "not UTF-8" };
  }
  const lines = text.split("\n");
  const blank = emptyLine(lines);
  if (blank < 1) return { error: "no old line and empty line" };
  const old = /^old (.*)$/s.exec(lines[0]!)?.[1];
  if (old === undefined || !DECIMAL.test(old)) return { error: "old line" };
  const proof = lines.slice(1, blank).map(base64);
  if (proof.length > 63) return { error: "too many proof lines" };
  if (proof.some((hash) => hash?.length !== 32)) return { error: "proof line" };
  return { old: Number(old), proof: proof as Buffer[], checkpoint: lines.slice(blank + 1).join("\n") };
}

/** The 409's body (text/x.tlog.size): the size in decimal and a newline. */
export function parseConflictBody(body: string): number | undefined {
  return body.endsWith("\n") && DECIMAL.test(body.slice(0, -1)) ? Number(body.slice(0, -1)) : undefined;
}

// tlog-proof: "c2sp.org/tlog-proof@v1", ["extra <base64>"], "index <n>", hash lines, "", the checkpoint.

export interface TlogProofParts {
  extra?: Buffer;
  index: number;
  proof: Buffer[];
  checkpoint: string;
}

export function formatTlogProofText({ extra, index, proof, checkpoint }: TlogProofParts): string {
  const head = ["c2sp.org/tlog-proof@v1", ...(extra ? [`extra ${extra.toString("base64")}`] : []), `index ${index}`];
  return [...head, ...proof.map((hash) => hash.toString("base64")), "", checkpoint].join("\n");
}

export function parseTlogProofText(text: string): TlogProofParts | { error: string } {
  const lines = text.split("\n");
  const blank = emptyLine(lines);
  if (blank < 0 || lines[0] !== "c2sp.org/tlog-proof@v1") return { error: "header" };
  let at = 1;
  let extra: Buffer | undefined;
  if (lines[at]!.startsWith("extra ")) {
    extra = base64(lines[at++]!.slice(6));
    if (extra === undefined) return { error: "extra" };
  }
  const index = /^index (.*)$/s.exec(lines[at++] ?? "")?.[1];
  if (index === undefined || !DECIMAL.test(index) || at > blank) return { error: "index" };
  const proof = lines.slice(at, blank).map(base64);
  if (proof.some((hash) => hash?.length !== 32)) return { error: "proof line" };
  return {
    ...(extra && { extra }),
    index: Number(index),
    proof: proof as Buffer[],
    checkpoint: lines.slice(blank + 1).join("\n"),
  };
}

// RFC 6962 §2.1: MTH and inclusion proofs, recursively as the RFC defines them.

export const leafHashOf = (entry: Buffer) => sha256(Buffer.from([0]), entry);
const node = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);
/** The largest power of two smaller than n (n > 1). */
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

export function mth(leafHashes: Buffer[]): Buffer {
  if (leafHashes.length === 0) return sha256();
  if (leafHashes.length === 1) return leafHashes[0]!;
  const k = split(leafHashes.length);
  return node(mth(leafHashes.slice(0, k)), mth(leafHashes.slice(k)));
}

/** The root a path leads to from leaf `index` of a tree of `size`; undefined for a path too short or too long. */
export function rootFromInclusion(leaf: Buffer, index: number, size: number, path: Buffer[]): Buffer | undefined {
  if (index >= size) return undefined;
  if (size === 1) return path.length === 0 ? leaf : undefined;
  const sibling = path.at(-1);
  if (sibling === undefined) return undefined;
  const k = split(size);
  const below = path.slice(0, -1);
  if (index < k) {
    const left = rootFromInclusion(leaf, index, k, below);
    return left && node(left, sibling);
  }
  const right = rootFromInclusion(leaf, index - k, size - k, below);
  return right && node(sibling, right);
}

// tlog-policy: the witnesses and the quorum, from a policy's text; only what a quorum needs.

export type PolicyNode = { none: true } | { witness: string } | { k: number; of: PolicyNode[] };

export interface IndependentPolicy {
  witnesses: Map<string, Buffer>;
  quorum: PolicyNode;
}

/** The policy, or the number (from 1) of the first line that breaks a rule of tlog-policy. */
export function parsePolicy(text: string): IndependentPolicy | { errorLine: number } {
  const witnesses = new Map<string, Buffer>();
  const logKeys: string[] = [];
  const grouped = new Set<string>();
  const names = new Map<string, PolicyNode>([["none", { none: true }]]);
  let quorum: PolicyNode | undefined;
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const fail = { errorLine: n + 1 };
    if (/[^\t\n\x20-\x7e\x80-\u{10ffff}]/u.test(lines[n]!)) return fail;
    const [word, ...args] = lines[n]!.split(/[ \t]+/).filter(Boolean);
    if (word === undefined || word.startsWith("#")) continue;
    if (word === "log") {
      const key = args.length >= 1 && args.length <= 2 ? parseVkey(args[0]!) : undefined;
      if (key?.type !== 0x01 || logKeys.includes(key.publicKey.toString("hex"))) return fail;
      logKeys.push(key.publicKey.toString("hex"));
    } else if (word === "witness") {
      const key = args.length >= 2 && args.length <= 3 ? parseVkey(args[1]!) : undefined;
      const duplicate = [...witnesses.values()].some((other) => key?.publicKey.equals(other));
      if (key?.type !== COSIGNATURE || names.has(args[0]!) || duplicate) return fail;
      witnesses.set(args[0]!, key.publicKey);
      names.set(args[0]!, { witness: args[0]! });
    } else if (word === "group") {
      const [name, threshold, ...members] = args;
      if (name === undefined || names.has(name) || members.length === 0) return fail;
      if (new Set(members).size !== members.length || members.includes("none")) return fail;
      // "Each defined name can be listed as a group member at most once": in the whole policy.
      if (members.some((member) => grouped.has(member))) return fail;
      for (const member of members) grouped.add(member);
      if (members.some((member) => !names.has(member))) return fail;
      const k = threshold === "all" ? members.length : threshold === "any" ? 1 : Number(threshold);
      if (!/^(all|any|[0-9]+)$/.test(threshold!) || !(k >= 1 && k <= members.length)) return fail;
      names.set(name, { k, of: members.map((member) => names.get(member)!) });
    } else if (word === "quorum") {
      if (args.length !== 1 || quorum !== undefined || !names.has(args[0]!)) return fail;
      quorum = names.get(args[0]!);
    } else return fail;
  }
  return quorum === undefined ? { errorLine: lines.length } : { witnesses, quorum };
}

export function satisfies(node: PolicyNode, cosigned: ReadonlySet<string>): boolean {
  if ("none" in node) return true;
  if ("witness" in node) return cosigned.has(node.witness);
  return node.of.filter((member) => satisfies(member, cosigned)).length >= node.k;
}
