/**
 * `npm run size`, which `npm test` runs: the size in a browser of each library that
 * bundle-budget.json gives a budget, bundled and minified as the library build bundles it
 * (build-library.ts), then gzipped, against that budget. One line per library; exits 1
 * when one is over.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { browserSize, LIBRARY_NAMES, type LibraryName } from "./build-library.ts";

const BUDGET_FILE = fileURLToPath(new URL("../bundle-budget.json", import.meta.url));

export type Budgets = Partial<Record<LibraryName, { gzipKiB: number }>>;

export interface BudgetCheck {
  library: LibraryName;
  gzipKiB: number;
  minifiedKiB: number;
  budgetKiB: number;
  over: boolean;
}

export async function checkBudgets(budgets: Budgets): Promise<BudgetCheck[]> {
  const budgeted = Object.entries(budgets) as [LibraryName, { gzipKiB: number }][];
  return Promise.all(
    budgeted.map(async ([library, { gzipKiB: budgetKiB }]) => {
      const { minified, gzipped } = await browserSize(library);
      return {
        library,
        gzipKiB: gzipped / 1024,
        minifiedKiB: minified / 1024,
        budgetKiB,
        over: gzipped > budgetKiB * 1024,
      };
    }),
  );
}

function budgetsInFile(): Budgets {
  const { $comment: _, ...budgets } = JSON.parse(readFileSync(BUDGET_FILE, "utf8")) as Record<string, unknown>;
  for (const [library, budget] of Object.entries(budgets)) {
    if (!(LIBRARY_NAMES as string[]).includes(library)) throw new Error(`${BUDGET_FILE}: no library ${library}`);
    if (typeof (budget as { gzipKiB?: unknown } | null)?.gzipKiB !== "number")
      throw new Error(`${BUDGET_FILE}: no gzipKiB for ${library}`);
  }
  return budgets as Budgets;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const checks = await checkBudgets(budgetsInFile());
  for (const { library, gzipKiB, minifiedKiB, budgetKiB } of checks)
    console.log(
      `${library}: ${gzipKiB.toFixed(1)} KiB gzip (${minifiedKiB.toFixed(1)} KiB minified), budget ${budgetKiB} KiB`,
    );
  const over = checks.filter((check) => check.over);
  if (over.length > 0) {
    const named = over.map(
      (check) => `${check.library} (${check.gzipKiB.toFixed(1)} KiB gzip, budget ${check.budgetKiB} KiB)`,
    );
    console.error(
      `over budget: ${named.join(", ")}. Make the library smaller, or raise its budget in ` +
        `bundle-budget.json if the bytes are worth it.`,
    );
    process.exitCode = 1;
  }
}
