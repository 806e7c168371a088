/**
 * The property-based harness (issue 37, defect 10): every parser and reader run over random input and over valid
 * documents mutated the ways an attacker mutates them. One seed drives every property of a run, so that a failure
 * can be replayed: `UM_PROPERTY_SEED` (a 32-bit integer) picks it, `random` picks a new one (CI does), and unset it
 * is FIXED_SEED, so that `npm test` runs the same inputs every time. Each test file prints the seed it used, and a
 * failure names the seed and fast-check's path to the counterexample.
 */
import fc from "fast-check";
import { isRuleId } from "../../core/rules/index.ts";

/** The seed `npm test` runs with: the issue that asked for the harness. */
const FIXED_SEED = 37;

function seedFromEnv(value: string | undefined): number {
  if (value === undefined || value === "") return FIXED_SEED;
  if (value === "random") return (Math.random() * 2 ** 32) | 0;
  if (/^-?[0-9]{1,10}$/.test(value) && Number(value) === (Number(value) | 0)) return Number(value);
  throw new Error(`UM_PROPERTY_SEED must be a 32-bit integer or "random", not ${JSON.stringify(value)}`);
}

/** The seed of this run. */
const PROPERTY_SEED = seedFromEnv(process.env.UM_PROPERTY_SEED);
console.log(`property seed ${PROPERTY_SEED} (rerun with UM_PROPERTY_SEED=${PROPERTY_SEED})`);

/** Runs `property` `numRuns` times from the run's seed; a failure names the seed, the path and the counterexample. */
export async function holds<T>(
  name: string,
  property: fc.IProperty<T> | fc.IAsyncProperty<T>,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(property, { seed: PROPERTY_SEED, numRuns });
  if (!details.failed) return;
  // A property's counterexample is the tuple of its arbitraries' values.
  const inputs = ((details.counterexample ?? []) as unknown[]).map((input) =>
    typeof input === "string" || input instanceof Uint8Array ? excerpt(input) : excerpt(JSON.stringify(input) ?? ""),
  );
  const failure = details.errorInstance instanceof Error ? details.errorInstance.stack : String(details.errorInstance);
  throw new Error(
    `property "${name}" failed with UM_PROPERTY_SEED=${PROPERTY_SEED} ` +
      `(fast-check seed ${details.seed}, path "${details.counterexamplePath}", run ${details.numRuns}):\n` +
      `input: ${inputs.join(", ")}\n${failure}`,
  );
}

/** That every problem names a rule of the registry: the structured answer a fault must get. */
export function assertRuleIds(problems: readonly { rule: unknown }[], input: string): void {
  for (const { rule } of problems)
    if (!isRuleId(rule)) throw new Error(`a problem names ${JSON.stringify(rule)}, no rule id, for ${excerpt(input)}`);
}

/** The start of a generated input, for a failure message: some are megabytes. */
export function excerpt(input: string | Uint8Array): string {
  const text = typeof input === "string" ? input : Buffer.from(input).toString("latin1");
  return JSON.stringify(
    text.length > 300 ? `${text.slice(0, 150)}…${text.slice(-150)} (${text.length} characters)` : text,
  );
}

const nested = (depth: number, open: string, inner: string, close: string) =>
  open.repeat(depth) + inner + close.repeat(depth);

/**
 * JSON text that is hostile where a value is expected: deep nesting (20,000 levels crashed readers without a depth
 * limit), numbers JSON.parse rounds or overflows, lone surrogates (raw, and escaped), duplicate members, oversized
 * strings and arrays, and Unicode that looks like something else.
 */
const HOSTILE_JSON: readonly string[] = [
  nested(100, "[", "0", "]"),
  nested(5_000, '{"a":', "1", "}"),
  nested(20_000, "[", "", "]"),
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "9007199254740993",
  "123456789012345678901234567890123456789",
  '"\ud800"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true}}',
  `"${"x".repeat(300_000)}"`,
  `[${"0,".repeat(50_000)}0]`,
  '"\u202e\ufeff\u200b"',
  '"\\u0000\\u001f"',
  '"e\u0301\u{1f680}\uffff"',
  "true",
  "null",
  "[]",
  "{}",
  '""',
];

/** Whether `text` nests containers a thousand deep: a reader that parses without a depth limit overflows its stack. */
const isDeep = (text: string): boolean => text.includes("[".repeat(1_000)) || text.includes('{"a":'.repeat(1_000));

/** The hostile JSON texts that nest thousands deep. */
export const DEEP_JSON: readonly string[] = HOSTILE_JSON.filter(isDeep);

/** A value of a wrong type, or a hostile one, as JSON text. */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_JSON),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
);

/** Characters that break readers: controls, lone surrogates, quotes, backslashes, newlines, non-ASCII. */
const oddCharacter = fc.oneof(
  fc.constantFrom("\ud800", "\udc00", "\u0000", "\n", "\r", '"', "\\", "{", "[", ",", ":", "\u2014", "\ufeff", "é"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
);

/** `text` damaged: characters replaced, cut, inserted (hostile JSON among them), or the text truncated. */
export function mutatedText(text: string): fc.Arbitrary<string> {
  const edit = fc.oneof(
    fc.tuple(fc.nat(), fc.nat(2), oddCharacter),
    fc.tuple(fc.nat(), fc.nat(8), hostileJson),
    fc.tuple(fc.nat(), fc.constant(Number.POSITIVE_INFINITY), fc.constant("")),
  );
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) =>
    edits.reduce((current, [at, cut, insert]) => {
      const i = at % (current.length + 1);
      return current.slice(0, i) + insert + current.slice(i + cut);
    }, text),
  );
}

/** `bytes` damaged: bytes flipped, cut, inserted, the whole truncated or repeated. */
export function mutatedBytes(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  const edit = fc.oneof(
    fc.tuple(fc.constant("flip" as const), fc.nat(), fc.integer({ min: 1, max: 255 })),
    fc.tuple(fc.constant("cut" as const), fc.nat(), fc.nat(40)),
    fc.tuple(fc.constant("insert" as const), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 40 })),
    fc.tuple(fc.constant("truncate" as const), fc.nat(), fc.constant(0)),
    fc.tuple(fc.constant("repeat" as const), fc.integer({ min: 2, max: 40 }), fc.constant(0)),
  );
  return fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) =>
    edits.reduce<Uint8Array>((current, [kind, at, arg]) => {
      const i = at % (current.length + 1);
      const copy = Buffer.from(current);
      switch (kind) {
        case "flip":
          if (i < copy.length) copy[i] = copy[i]! ^ (arg as number);
          return copy;
        case "cut":
          return Buffer.concat([copy.subarray(0, i), copy.subarray(i + (arg as number))]);
        case "insert":
          return Buffer.concat([copy.subarray(0, i), arg as Uint8Array, copy.subarray(i)]);
        case "truncate":
          return copy.subarray(0, i);
        default:
          return Buffer.concat(Array.from({ length: at }, () => copy));
      }
    }, bytes),
  );
}

type Path = (string | number)[];

function pathsOf(value: unknown, path: Path = []): Path[] {
  if (typeof value !== "object" || value === null) return [path];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [path, ...children.flatMap(([k, v]) => pathsOf(v, [...path, k]))];
}

const PLACEHOLDER = "\u0001value\u0001";
const KEY = "\u0001key\u0001";

/**
 * `document` with one value changed: replaced by hostile JSON or a value of another type, removed, given a
 * duplicate member, or an unknown member added; then serialized, compact or indented.
 */
function mutatedJson(document: unknown): fc.Arbitrary<string> {
  const paths = pathsOf(document);
  const change = fc.oneof(
    hostileJson.map((raw) => ({ kind: "replace" as const, raw })),
    fc.constant({ kind: "remove" as const, raw: "" }),
    hostileJson.map((raw) => ({ kind: "duplicate" as const, raw })),
    fc.tuple(fc.string({ maxLength: 8 }), hostileJson).map(([name, raw]) => ({ kind: "add" as const, name, raw })),
  );
  return fc.tuple(fc.nat(paths.length - 1), change, fc.boolean()).map(([which, mutation, indent]) => {
    const path = paths[which]!;
    const root = { value: structuredClone(document) as unknown };
    // The value changed is parent[last]: the document itself is root.value.
    const [holder, last] =
      path.length === 0
        ? [root as Record<string | number, unknown>, "value"]
        : [
            path
              .slice(0, -1)
              .reduce<Record<string | number, unknown>>((node, k) => node[k] as never, root.value as never),
            path.at(-1)!,
          ];
    const target = holder[last];
    const written = () => (indent ? JSON.stringify(root.value, null, 2) : JSON.stringify(root.value)) ?? "";
    const value = JSON.stringify(PLACEHOLDER);
    if (mutation.kind === "remove") {
      if (path.length === 0) return "";
      if (Array.isArray(holder)) holder.splice(last as number, 1);
      else delete holder[last];
      return written();
    }
    const isObject = typeof target === "object" && target !== null && !Array.isArray(target);
    const name = mutation.kind === "add" ? mutation.name : isObject ? Object.keys(target)[0] : undefined;
    if (mutation.kind === "replace" || !isObject || name === undefined) {
      if (mutation.kind === "add" && Array.isArray(target)) target.push(PLACEHOLDER);
      else holder[last] = PLACEHOLDER;
      return written().replace(value, mutation.raw);
    }
    // A member added, or a duplicate of the object's first: JSON.stringify cannot write one, so it is put in after.
    (target as Record<string, unknown>)[KEY] = PLACEHOLDER;
    return written().replace(
      `${JSON.stringify(KEY)}:${indent ? " " : ""}${value}`,
      `${JSON.stringify(name)}:${mutation.raw}`,
    );
  });
}

/** What a reader of `sample` (a valid document of its kind) is fed: the sample mutated, or random text. */
export function documentText(sample: unknown): fc.Arbitrary<string> {
  const text = JSON.stringify(sample, null, 2);
  return fc.oneof(
    { weight: 4, arbitrary: mutatedJson(sample) },
    { weight: 3, arbitrary: mutatedText(text) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
    { weight: 1, arbitrary: hostileJson },
  );
}

/** The command's exit status, with what it prints silenced. */
export async function quietly(run: () => Promise<number>): Promise<number> {
  const { log, error } = console;
  console.log = () => {};
  console.error = () => {};
  try {
    return await run();
  } finally {
    Object.assign(console, { log, error });
  }
}
