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
  assert.deepEqual(folderCycles(layered), []);
});

test("a cycle of folders no module cycle makes is found, with one import on each edge", () => {
  const circular = imports(
    ["core/client/resolve.ts", "core/evaluate/arrive.ts"],
    ["core/client/status.ts", "core/evaluate/receipt.ts"],
    ["core/evaluate/evaluate.ts", "core/client/fetch.ts"],
    ["core/evaluate/evaluate.ts", "core/excerpt.ts"],
  );
  assert.deepEqual(folderCycles(circular), [
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
    folderCycles(nested).map((cycle) => cycle.folders),
    [["scripts", "scripts/commands", "scripts/plan"]],
  );
});
