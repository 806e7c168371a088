/**
 * `npm run size`, which `npm test` runs: the size in a browser of each bundle that
 * bundle-budget.json gives a budget, minified as it ships, each file then gzipped, against
 * that budget. The bundles are code-split: what counts is the common path, a v0.4
 * manifest's lookup, which loads the entry and the chunks it imports statically; the
 * chunks loaded by a dynamic import only when needed (the v0.3 validator, status lists,
 * federation, the log's proof with a log key, the pure-JS Ed25519) are printed apart, not
 * counted.
 * - `evaluate`, `client`: the libraries, bundled as `npm run build:lib` bundles each
 *   (build-library.ts), on its own;
 * - `lookup`: the lookup page's script as the page serves it (scripts/lookup-page-files/).
 * One line per bundle and one per lazy chunk; exits 1 when one is over.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bundleLookupScript } from "../scripts/lookup-page-files/files.ts";
import { type Bundle, bundleLibraries, LIBRARY_NAMES, type LibraryName, libraryEntry } from "./build-library.ts";

const BUDGET_FILE = fileURLToPath(new URL("../bundle-budget.json", import.meta.url));

/** What a budget may be set for: a library, or the lookup page's script. */
export type Budgeted = LibraryName | "lookup";
const BUDGETED: readonly string[] = [...LIBRARY_NAMES, "lookup"];

export type Budgets = Partial<Record<Budgeted, { gzipKiB: number }>>;

/** Bytes minified, and gzipped at level 9 file by file (as a server sends each). */
export interface Weight {
  minified: number;
  gzipped: number;
}

export interface LoadedWeights {
  /** The entry and every chunk loaded with it. */
  common: Weight;
  /** Each chunk loaded only by a dynamic import: its file, and the module whose import loads it (if one does). */
  lazy: (Weight & { file: string; loads?: string })[];
}

export interface BudgetCheck {
  bundle: Budgeted;
  gzipKiB: number;
  minifiedKiB: number;
  budgetKiB: number;
  over: boolean;
  lazy: LoadedWeights["lazy"];
}

/**
 * What a browser downloads of `bundle` from `entry`: the entry and the chunks it imports
 * statically; apart, every other chunk.
 */
export function loadedWeights(bundle: Bundle, entry: string): LoadedWeights {
  const { outputs } = bundle.metafile;
  const common = new Set<string>();
  const load = (file: string) => {
    if (common.has(file)) return;
    common.add(file);
    for (const imported of outputs[file]!.imports)
      if (imported.kind === "import-statement" && !imported.external) load(imported.path);
  };
  load(entry);
  const weightOf = (file: string): Weight => {
    const bytes = bundle.files.find((f) => f.path === file)!.bytes;
    return { minified: bytes.byteLength, gzipped: gzipSync(bytes, { level: 9 }).byteLength };
  };
  const weights = [...common].map(weightOf);
  return {
    common: {
      minified: weights.reduce((sum, w) => sum + w.minified, 0),
      gzipped: weights.reduce((sum, w) => sum + w.gzipped, 0),
    },
    lazy: Object.keys(outputs)
      .filter((file) => file.endsWith(".js") && !common.has(file))
      .map((file) => ({
        file,
        ...(outputs[file]!.entryPoint !== undefined && { loads: outputs[file]!.entryPoint }),
        ...weightOf(file),
      })),
  };
}

/** The weights of `name`'s bundle, minified as it ships. */
export async function bundleWeights(name: Budgeted): Promise<LoadedWeights> {
  if (name === "lookup") {
    return loadedWeights(await bundleLookupScript(), "lookup.js");
  }
  return loadedWeights(await bundleLibraries([name], true), libraryEntry(name));
}

export async function checkBudgets(budgets: Budgets): Promise<BudgetCheck[]> {
  const budgeted = Object.entries(budgets) as [Budgeted, { gzipKiB: number }][];
  return Promise.all(
    budgeted.map(async ([bundle, { gzipKiB: budgetKiB }]) => {
      const { common, lazy } = await bundleWeights(bundle);
      return {
        bundle,
        gzipKiB: common.gzipped / 1024,
        minifiedKiB: common.minified / 1024,
        budgetKiB,
        over: common.gzipped > budgetKiB * 1024,
        lazy,
      };
    }),
  );
}

function budgetsInFile(): Budgets {
  const { $comment: _, ...budgets } = JSON.parse(readFileSync(BUDGET_FILE, "utf8")) as Record<string, unknown>;
  for (const [bundle, budget] of Object.entries(budgets)) {
    if (!BUDGETED.includes(bundle)) throw new Error(`${BUDGET_FILE}: no bundle ${bundle}`);
    if (typeof (budget as { gzipKiB?: unknown } | null)?.gzipKiB !== "number")
      throw new Error(`${BUDGET_FILE}: no gzipKiB for ${bundle}`);
  }
  return budgets as Budgets;
}

const kiB = (bytes: number) => (bytes / 1024).toFixed(1);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const checks = await checkBudgets(budgetsInFile());
  for (const { bundle, gzipKiB, minifiedKiB, budgetKiB, lazy } of checks) {
    console.log(
      `${bundle}: ${gzipKiB.toFixed(1)} KiB gzip (${minifiedKiB.toFixed(1)} KiB minified), budget ${budgetKiB} KiB`,
    );
    for (const chunk of lazy)
      console.log(
        `  lazy: ${chunk.loads ?? chunk.file} ${kiB(chunk.gzipped)} KiB gzip (${kiB(chunk.minified)} KiB minified)`,
      );
  }
  const over = checks.filter((check) => check.over);
  if (over.length > 0) {
    const named = over.map(
      (check) => `${check.bundle} (${check.gzipKiB.toFixed(1)} KiB gzip, budget ${check.budgetKiB} KiB)`,
    );
    console.error(
      `over budget: ${named.join(", ")}. Make the bundle smaller, or raise its budget in ` +
        `bundle-budget.json if the bytes are worth it.`,
    );
    process.exitCode = 1;
  }
}
