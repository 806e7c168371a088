#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { loadCli } from "./load-cli.js";

// A reader that stops early (`manifest-resolver check --json | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const args = process.argv.slice(2);
if (args[0] === "--version" || args[0] === "-V") {
  // The version is package.json's: printed without loading the CLI, whose freshness check
  // (a stat of every file it was built from) and modules cost a sixth of Node's own start.
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  console.log(`manifest-resolver ${version}`);
} else {
  const { main } = await loadCli();
  process.exitCode = await main(args);
}
