/**
 * The evaluator's bundle (as `manifest-resolver/evaluate` ships it) in the other runtimes
 * it claims: Deno (the bundle imported by `deno run`) and workerd (a Worker importing it,
 * under miniflare). Each gives, for the same manifests and contexts, the receipts Node
 * gives: a manifest accepted, one forged, one expired, one with a presentation proof
 * missing, one of v0.3 (the chunk loaded for it), and every present evaluation entry of the v0.4 suite.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Miniflare } from "miniflare";
import { evaluate, type EvaluationContext, type Receipt } from "../../core/evaluate/index.ts";
import { bundleLibraries } from "../../tools/build-library.ts";
import { manifestFor, newKey, signed } from "../support/fixture-content.ts";
import { ROOT } from "../support/paths.ts";
import { DENO_ENV, wranglerConfig } from "../support/runtimes.ts";
import { sharedPath, skipWithoutShared } from "../support/shared.ts";

type Case = [text: string, context: EvaluationContext];

function cases(): Case[] {
  const good = JSON.stringify(signed(manifestFor("urn:runtimes:evaluated"), newKey()));
  const made: Case[] = [
    [good, { now: "2026-06-01T00:00:00Z", omitProcessedAt: true }],
    [
      good.replace("did:web:fixture.example", "did:web:mallory.example"),
      { now: "2026-06-01T00:00:00Z", omitProcessedAt: true },
    ],
    [good, { now: "2031-01-01T00:00:00Z", omitProcessedAt: true }],
    [good, { now: "2026-06-01T00:00:00Z", verifierChallenge: "n-1", omitProcessedAt: true }],
    // Read by the v0.3 validator, which the bundle loads from a chunk of its own by a dynamic import.
    [
      good.replace('"manifestVersion":"0.4"', '"manifestVersion":"0.3"'),
      { now: "2026-06-01T00:00:00Z", omitProcessedAt: true },
    ],
  ];
  const suite = "peer/universal-manifest-v0.4";
  if (skipWithoutShared(`${suite}/expected.json`)) return made;
  const entries = (
    JSON.parse(readFileSync(sharedPath(`${suite}/expected.json`), "utf8")).fixtures as {
      filename: string;
      evaluationContext?: EvaluationContext;
    }[]
  ).filter((e) => e.evaluationContext !== undefined && existsSync(sharedPath(`${suite}/${e.filename}`)));
  return [
    ...made,
    ...entries.map((e): Case => [readFileSync(sharedPath(`${suite}/${e.filename}`), "utf8"), e.evaluationContext!]),
  ];
}

describe("the evaluator in Deno and workerd", () => {
  const scratch = mkdtempSync(join(tmpdir(), "um-runtimes-"));
  const all = cases();
  let expected: Receipt[];
  before(async () => {
    // The library and its chunks, at their paths in the package (lib/…), which its imports name.
    for (const file of (await bundleLibraries(["evaluate"], false)).files) {
      mkdirSync(dirname(join(scratch, file.path)), { recursive: true });
      writeFileSync(join(scratch, file.path), file.bytes);
    }
    writeFileSync(join(scratch, "cases.json"), JSON.stringify(all));
    // Offline in every runtime: the same receipts whatever each can reach, and the fixtures' did:web host is none.
    expected = await Promise.all(all.map(([text, context]) => evaluate(text, context, { offline: true })));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("Deno gives Node's receipts", () => {
    const script = `import { evaluate } from "./lib/evaluate.js";
const cases = JSON.parse(await Deno.readTextFile(new URL("./cases.json", import.meta.url)));
console.log(JSON.stringify(await Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true })))));`;
    writeFileSync(join(scratch, "run.js"), script);
    const deno = spawnSync(
      join(ROOT, "node_modules/.bin/deno"),
      ["run", "--quiet", "--no-prompt", `--allow-read=${scratch}`, join(scratch, "run.js")],
      { encoding: "utf8", env: DENO_ENV },
    );
    assert.equal(deno.status, 0, deno.stderr);
    assert.deepEqual(JSON.parse(deno.stdout), expected);
  });

  it("workerd gives Node's receipts", async () => {
    const worker = `import { evaluate } from "./lib/evaluate.js";
export default { async fetch(request) { const cases = await request.json(); return Response.json(await Promise.all(cases.map(([text, context]) => evaluate(text, context, { offline: true })))); } };`;
    const mf = new Miniflare({
      modules: [
        { type: "ESModule", path: join(scratch, "worker.js"), contents: worker },
        ...readdirSync(join(scratch, "lib"), { recursive: true })
          .map(String)
          .filter((name) => name.endsWith(".js"))
          .map((name) => ({
            type: "ESModule" as const,
            path: join(scratch, "lib", name),
            contents: readFileSync(join(scratch, "lib", name), "utf8"),
          })),
      ],
      modulesRoot: scratch,
      compatibilityDate: wranglerConfig().compatibility_date,
    });
    try {
      const response = await mf.dispatchFetch("http://evaluator.test/", { method: "POST", body: JSON.stringify(all) });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), expected);
    } finally {
      await mf.dispose();
    }
  });
});
