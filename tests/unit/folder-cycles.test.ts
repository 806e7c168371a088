/** The lint's folder-cycle check (tools/folder-cycles.ts) over small graphs made here. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { folderCycles, type ModuleImport } from "../../tools/folder-cycles.ts";

const imports = (...pairs: [string, string][]): ModuleImport[] => pairs.map(([from, to]) => ({ from, to }));

test("folders in layers have no cycle, whatever their modules import within a folder", () => {
  const layered = imports(
    ["core/client/resolve.ts", "core/http/fetch.ts"],
    ["core/client/resolve.ts", "core/excerpt.ts"],
    ["core/http/fetch.ts", "core/excerpt.ts"],
    ["core/http/fetch.ts", "core/http/cache.ts"],
    ["core/http/cache.ts", "core/http/fetch.ts"],
  );
  assert.deepEqual(folderCycles(layered, []), { cycles: [], stale: [] });
});

test("a cycle of folders no module cycle makes is found, with one import on each edge", () => {
  const circular = imports(
    ["core/client/resolve.ts", "core/evaluate/arrive.ts"],
    ["core/client/status.ts", "core/evaluate/receipt.ts"],
    ["core/evaluate/evaluate.ts", "core/client/fetch.ts"],
    ["core/evaluate/evaluate.ts", "core/excerpt.ts"],
  );
  assert.deepEqual(folderCycles(circular, []).cycles, [
    {
      folders: ["core/client", "core/evaluate"],
      imports: imports(
        ["core/client/resolve.ts", "core/evaluate/arrive.ts"],
        ["core/evaluate/evaluate.ts", "core/client/fetch.ts"],
      ),
    },
  ]);
});

test("a folder and the folder nested in it are two folders, and a longer cycle is reported whole", () => {
  const nested = imports(
    ["scripts/cli.ts", "scripts/commands/build.ts"],
    ["scripts/commands/build.ts", "scripts/plan/plan.ts"],
    ["scripts/plan/plan.ts", "scripts/config.ts"],
  );
  assert.deepEqual(
    folderCycles(nested, []).cycles.map((cycle) => cycle.folders),
    [["scripts", "scripts/commands", "scripts/plan"]],
  );
});

test("a known edge is left out, and one no longer imported is reported as stale", () => {
  const known = [
    { from: "scripts/cache", to: "scripts/check", why: "test" },
    { from: "scripts/log", to: "scripts/check", why: "test" },
  ];
  const graph = imports(
    ["scripts/check/check.ts", "scripts/cache/cache.ts"],
    ["scripts/cache/reads.ts", "scripts/check/unsigned.ts"],
  );
  assert.deepEqual(folderCycles(graph, known), { cycles: [], stale: [known[1]] });
});
