/**
 * C2SP tlog-policy (core/tlog/log-policy.ts): the spec's example, with real keys for its
 * elided ones, gives the quorum it describes (2 of X and 1 of Y) in ours and in the
 * independent implementation alike; every rule broken is refused at its line and column,
 * and the independent parser refuses the same line.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  keyOnlyPolicy,
  type LogPolicy,
  missingWitnesses,
  parseLogPolicy,
  quorumCount,
  quorumMet,
} from "../../core/tlog/log-policy.ts";
import { ed25519FromSeed, parsePolicy, satisfies, vkeyOf } from "../support/c2sp-independent.ts";

const key = (byte: number) => ed25519FromSeed(Buffer.alloc(32, byte)).publicKey;
const LOG = vkeyOf("example.com/log", 0x01, key(1));
const witnessKey = (name: string, byte: number) => vkeyOf(`${name}.example`, 0x04, key(byte));

const EXAMPLE = `log ${LOG}

witness X1 ${witnessKey("x1", 11)}
witness X2 ${witnessKey("x2", 12)}
witness X3 ${witnessKey("x3", 13)}
group X-witnesses 2 X1 X2 X3

witness Y1 ${witnessKey("y1", 21)}
witness Y2 ${witnessKey("y2", 22)}
witness Y3 ${witnessKey("y3", 23)}
group Y-witnesses any Y1 Y2 Y3

group X-and-Y all X-witnesses Y-witnesses
quorum X-and-Y
`;

/** Every subset of the six witnesses, as sets of names. */
const subsets = () => {
  const names = ["X1", "X2", "X3", "Y1", "Y2", "Y3"];
  return Array.from({ length: 64 }, (_, bits) => new Set(names.filter((_, i) => bits & (1 << i))));
};

describe("the spec's example policy (tlog-policy, Example policy)", () => {
  const parsed = parseLogPolicy(EXAMPLE);
  const policy = (parsed.ok && parsed.policy) as LogPolicy;
  it("parses: one log, six witnesses with their cosigner keys, the quorum X-and-Y", () => {
    assert.equal(parsed.ok, true);
    assert.equal(policy.logs.length, 1);
    assert.deepEqual(
      policy.witnesses.map((witness) => witness.name),
      ["X1", "X2", "X3", "Y1", "Y2", "Y3"],
    );
    assert.deepEqual(Buffer.from(policy.witnesses[3]!.key.publicKey), key(21));
    assert.equal(policy.quorum.kind === "group" && policy.quorum.name, "X-and-Y");
  });
  it("is met exactly when 2 of the X witnesses and 1 of the Y cosigned, in both implementations", () => {
    const theirs = parsePolicy(EXAMPLE);
    assert.ok("quorum" in theirs);
    for (const cosigned of subsets()) {
      const x = ["X1", "X2", "X3"].filter((name) => cosigned.has(name)).length;
      const y = ["Y1", "Y2", "Y3"].filter((name) => cosigned.has(name)).length;
      const expected = x >= 2 && y >= 1;
      assert.equal(quorumMet(policy.quorum, cosigned), expected, [...cosigned].join(" "));
      assert.equal(satisfies(theirs.quorum, cosigned), expected, [...cosigned].join(" "));
    }
    assert.deepEqual(quorumCount(policy.quorum, new Set(["X1", "Y3"])), { cosigned: 2, of: 6 });
    assert.deepEqual(missingWitnesses(policy.quorum, new Set(["X1", "Y3"])), ["X2", "X3", "Y1", "Y2"]);
  });
  it("takes tabs, leading and trailing whitespace, comments and URLs", () => {
    const text =
      `  # a comment\n\tlog ${LOG}  https://log.example/ \n` +
      `witness W ${witnessKey("w", 30)}\thttps://w.example\nquorum\tW\t\n`;
    const parsed = parseLogPolicy(text);
    assert.equal(parsed.ok && parsed.policy.logs[0]?.url, "https://log.example/");
    assert.equal(parsed.ok && parsed.policy.witnesses[0]?.url, "https://w.example");
    assert.ok("quorum" in parsePolicy(text));
  });
  it("quorum none asks for no cosignature", () => {
    const parsed = parseLogPolicy(`log ${LOG}\nquorum none\n`);
    assert.deepEqual(parsed.ok && parsed.policy.quorum, { kind: "none" });
    assert.equal(parsed.ok && quorumMet(parsed.policy.quorum, new Set()), true);
    assert.deepEqual(parsed.ok && keyOnlyPolicy(parsed.policy.logs[0]!.key), parsed.ok && parsed.policy);
  });
});

const W1 = `witness W1 ${witnessKey("w1", 31)}`;
const W2 = `witness W2 ${witnessKey("w2", 32)}`;

/** Each case: the policy's lines, the line (from 1) that breaks a rule, and the text that column points at. */
const broken: [rule: string, lines: string[], line: number, at: string][] = [
  ["a carriage return", [`log ${LOG}\r`, "quorum none"], 1, "\r"],
  ["a control character in a comment", ["# a \u0001", "quorum none"], 1, "\u0001"],
  ["DEL", ["quorum none\u007f"], 1, "\u007f"],
  ["an unknown keyword", ["logs x", "quorum none"], 1, "logs"],
  ["a log with a cosigner key", [`log ${witnessKey("l", 40)}`, "quorum none"], 1, "l.example"],
  ["a log with no key", ["log", "quorum none"], 1, "\n"],
  ["a log listed twice", [`log ${LOG}`, `log ${vkeyOf("other.example/log", 1, key(1))}`, "quorum none"], 2, "other"],
  ["a log line with three items", [`log ${LOG} https://a https://b`, "quorum none"], 1, "https://b"],
  ["a witness with a log key", [`witness W ${LOG}`, "quorum none"], 1, "example.com"],
  ["a witness's key listed twice", [W1, `witness W9 ${witnessKey("w1", 31)}`, "quorum none"], 2, "w1.example"],
  ["a name defined twice", [W1, `witness W1 ${witnessKey("w2", 32)}`, "quorum none"], 2, "W1"],
  ["a witness named none", [`witness none ${witnessKey("w1", 31)}`, "quorum none"], 1, "none"],
  ["a member not defined", [W1, "group G any W1 W2", "quorum G"], 2, "W2"],
  ["a member defined after", [W1, "group G any W1 W2", W2, "quorum G"], 2, "W2"],
  ["a group naming itself", [W1, "group G any W1 G", "quorum G"], 2, "G"],
  ["none as a member", [W1, "group G any W1 none", "quorum G"], 2, "none"],
  ["a member listed twice", [W1, W2, "group G all W1 W2 W1", "quorum G"], 3, "W1"],
  ["a member of two groups", [W1, W2, "group G any W1 W2", "group Q 2 W1 G", "quorum Q"], 4, "W1"],
  ["a group with no member", [W1, "group G any", "quorum none"], 2, "\n"],
  ["a threshold of 0", [W1, W2, "group G 0 W1 W2", "quorum G"], 3, "0"],
  ["a threshold past n", [W1, W2, "group G 3 W1 W2", "quorum G"], 3, "3"],
  ["a threshold that is no number", [W1, W2, "group G most W1 W2", "quorum G"], 3, "most"],
  ["a quorum not defined", [W1, "quorum W2"], 2, "W2"],
  ["a quorum defined after", ["quorum W1", W1], 1, "W1"],
  ["two quorum lines", [W1, "quorum W1", "quorum none"], 3, "quorum"],
  ["a quorum of two names", [W1, W2, "quorum W1 W2"], 3, "W2"],
];

describe("a policy that breaks a rule", () => {
  for (const [rule, lines, line, at] of broken) {
    it(`${rule}: refused at line ${line}, where it breaks, in both implementations`, () => {
      const text = `${lines.join("\n")}\n`;
      const parsed = parseLogPolicy(text);
      const where = lines[line - 1]!;
      // The last occurrence: the repeated name, the offending item; past the end ("\n") for an item missing.
      const column = at === "\n" ? where.length + 1 : where.lastIndexOf(at) + 1;
      assert.deepEqual(parsed.ok ? parsed : { line: parsed.line, column: parsed.column }, { line, column });
      assert.deepEqual(parsePolicy(text), { errorLine: line });
    });
  }
  it("no quorum line: refused, in both", () => {
    const parsed = parseLogPolicy(`log ${LOG}\n${W1}\n`);
    assert.equal(parsed.ok, false);
    assert.ok("errorLine" in parsePolicy(`log ${LOG}\n${W1}\n`));
  });
  it("a list of logs (logsOnly) takes log lines alone", () => {
    assert.equal(parseLogPolicy(`log ${LOG}\n`, { logsOnly: true }).ok, true);
    const parsed = parseLogPolicy(`log ${LOG}\nquorum none\n`, { logsOnly: true });
    assert.deepEqual(parsed.ok ? parsed : [parsed.line, parsed.column], [2, 1]);
  });
});
