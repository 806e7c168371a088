/**
 * What `check` loads: the prebuilt CLI (tools/build-cli.ts) gives a command every module its code reaches by static
 * imports, used or not, so `check` must reach none of the stages after the check (scripts/plan/, scripts/write/) nor
 * the history rules (scripts/history/, for --base only): the pipeline's entry loads those when asked for. The graph is
 * esbuild's own, the one that cuts the bundle.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { build } from "esbuild";
import { ROOT } from "../support/paths.ts";

/** The modules `entry` reaches by static imports, as esbuild resolves them. */
async function staticallyReached(entry: string): Promise<string[]> {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const reached = new Set<string>();
  const pending = [entry];
  for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
    if (reached.has(module)) continue;
    reached.add(module);
    for (const { path, kind } of metafile.inputs[module]?.imports ?? [])
      if (kind === "import-statement") pending.push(path);
  }
  return [...reached];
}

test("check reaches no module of the output stages or the history rules by static imports", async () => {
  const reached = await staticallyReached("scripts/commands/check.ts");
  assert.ok(reached.includes("scripts/check/check-content.ts"), "the graph is check's");
  // git-revision.ts is the log gate's too, which reads the log of an earlier revision.
  const notForCheck = /^scripts\/(plan\/|write\/|history\/(?!git-revision\.ts$))/;
  assert.deepEqual(
    reached.filter((module) => notForCheck.test(module)),
    [],
  );
});
