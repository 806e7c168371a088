// Runs the CLI (argv after this file) and reports its peak RSS, worker threads included,
// on stderr as the last line: {"maxRssKiB": n}.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../scripts/cli.ts");
process.exitCode = await main(process.argv.slice(2));
process.stderr.write(`${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })}\n`);
