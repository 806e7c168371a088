#!/usr/bin/env node
import { loadCli } from "./load-cli.js";

// A reader that stops early (`manifest-resolver check --json | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const { main } = await loadCli();
process.exitCode = await main(process.argv.slice(2));
