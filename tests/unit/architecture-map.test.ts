/**
 * docs/architecture.md is the map of the code (issue 38, part 5): short, and true. Every path it names exists (a bare
 * file or folder name under a folder's heading exists somewhere in that folder), every lint rule it names is one
 * dependency-cruiser defines, and every invariant names the test or lint rule that holds it. Then the checker on a
 * page made here, which must find each kind of fault.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import fg from "fast-glob";
import { ROOT } from "../support/paths.ts";

const MAX_LINES = 150;
const TOP_FOLDERS = /^(core|edge|lookup-page|scripts|bin|tools|tests|bench|docs|content|\.ci)\//;
const LINT_RULES = new Set(
  [...readFileSync(join(ROOT, ".dependency-cruiser.cjs"), "utf8").matchAll(/name: "([a-z-]+)"/g)].map(
    ([, name]) => name,
  ),
);

interface MapFaults {
  missingPaths: string[];
  unknownRules: string[];
  unheldInvariants: string[];
}

/** What is wrong with the map `page`, whose paths are looked up under `root`. */
function mapFaults(page: string, root: string): MapFaults {
  const faults: MapFaults = { missingPaths: [], unknownRules: [], unheldInvariants: [] };
  let folder: string | undefined;
  let section = "";
  let invariant = "";
  const judgeInvariant = () => {
    if (invariant !== "" && !/`(tests\/[^`]+|[a-z]+(-[a-z]+)+)`/.test(invariant))
      faults.unheldInvariants.push(invariant);
    invariant = "";
  };
  for (const line of page.split("\n")) {
    if (line.startsWith("#")) {
      judgeInvariant();
      section = line;
      folder = /^### ([a-z-]+)\/,?/.exec(line)?.[1];
      continue;
    }
    if (section === "## Invariants") {
      if (line.startsWith("- ")) {
        judgeInvariant();
        invariant = line;
      } else if (line.trim() !== "") invariant += ` ${line.trim()}`;
    }
    for (const [, token] of line.matchAll(/`([^`\s]+)`/g)) {
      const name = token!.replace(/[,.:;]$/, "");
      if (TOP_FOLDERS.test(name) || name.startsWith(".dependency-cruiser")) {
        if (!existsSync(join(root, name))) faults.missingPaths.push(name);
      } else if (/^[\w.-]+\.(ts|js|mjs|cjs|json|html|md)$/.test(name) || /^[\w-]+\/$/.test(name)) {
        const found =
          folder !== undefined &&
          fg.sync([`${folder}/**/${name.replace(/\/$/, "")}`], { cwd: root, onlyFiles: false, dot: true }).length > 0;
        if (!found && !existsSync(join(root, name))) faults.missingPaths.push(folder ? `${folder}/…/${name}` : name);
      } else if (/^[a-z]+(-[a-z]+){2,}$/.test(name) && section.startsWith("## Folders") && !LINT_RULES.has(name)) {
        faults.unknownRules.push(name);
      }
    }
  }
  judgeInvariant();
  return faults;
}

test("docs/architecture.md is at most 150 lines, and every path, lint rule and invariant in it holds", () => {
  const page = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  assert.ok(page.split("\n").length <= MAX_LINES, `${page.split("\n").length} lines`);
  assert.deepEqual(mapFaults(page, ROOT), { missingPaths: [], unknownRules: [], unheldInvariants: [] });
});

test("the checker finds a missing path, a bare name no folder holds, an unknown rule and an unheld invariant", () => {
  const page = [
    "## Folders, and what each may import",
    "| `core/` | `core-imports-only-core`, `core-imports-nothing-at-all` |",
    "### edge/",
    "`handler.ts` and `no-such-module.ts`, `edge/gone.ts`",
    "## Invariants",
    "- **Held:** `tests/build.test.ts`.",
    "- **Not held by anything",
    "  named here.**",
  ].join("\n");
  assert.deepEqual(mapFaults(page, ROOT), {
    missingPaths: ["edge/…/no-such-module.ts", "edge/gone.ts"],
    unknownRules: ["core-imports-nothing-at-all"],
    unheldInvariants: ["- **Not held by anything named here.**"],
  });
});
