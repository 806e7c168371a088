/** `manifest-resolver build`: validate the content directory and write the output directory. */
import { contextUrl } from "../config.ts";
import { checkContent } from "../content/check-content.ts";
import { formatDiagnostic, summarize } from "../diagnostics.ts";
import { OutputError, planOutput, writeOutput } from "../build/output.ts";
import { EXIT_FAILED, EXIT_OK, stringOption, UsageError, type Command } from "./command.ts";

export const build: Command = {
  name: "build",
  summary: "validate content/ and write the resolver's static output to dist/",
  help: `Usage: manifest-resolver build [--content DIR] [--out DIR]

Validates every manifest in the content directory (strict JSON, the v0.4 schema, the
Ed25519 signature) and _routes.json, then writes one body file per manifest and the
record map to the output directory. Nothing is written if anything fails: the previous
output directory is left as it was.

Options:
  --content DIR   content directory (default: content)
  --out DIR       output directory (default: dist)

Environment:
  UM_STANDARDS_URL  site whose /ns/v0.4 context manifests must use
                    (default: https://universalmanifest.net)

Exit status: 0 built, 1 invalid content or write failure, 2 usage error.

Example:
  manifest-resolver build --content content --out dist`,
  options: {
    content: { type: "string" },
    out: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const contentDir = stringOption(values, "content", "content");
    const outDir = stringOption(values, "out", "dist");
    const started = performance.now();

    const content = await checkContent(contentDir, { contextUrl: contextUrl() });
    for (const d of content.diagnostics) console.error(formatDiagnostic(d));
    if (content.diagnostics.some((d) => d.severity === "error")) {
      console.error(`${summarize(content.diagnostics)} ${outDir} was left unchanged.`);
      return EXIT_FAILED;
    }

    const files = planOutput(content);
    try {
      await writeOutput(outDir, files);
    } catch (error) {
      if (!(error instanceof OutputError || (error as NodeJS.ErrnoException).code !== undefined)) throw error;
      console.error(`manifest-resolver: cannot write ${outDir}: ${(error as Error).message}`);
      return EXIT_FAILED;
    }

    const bytes = files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
    const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    console.log(
      `built ${outDir}/ from ${contentDir}/: ${count(content.published.length, "manifest")}, ` +
        `${count(content.redirects.size, "redirect")}, ${content.revoked.size} revoked ` +
        `(${(bytes / 1024).toFixed(1)} KiB) in ${Math.round(performance.now() - started)}ms`,
    );
    return EXIT_OK;
  },
};
