// Runs the CLI (argv after this file) as bin/manifest-resolver.js does, and reports its
// peak RSS, worker threads included, on stderr as the last line: {"maxRssKiB": n}.
import { loadCli } from "../bin/load-cli.js";

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
process.stderr.write(`${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })}\n`);
