#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx compiles each module on first import (and caches
// it), so the repository needs no separate compile step before `npx manifest-resolver`.
import { register } from "tsx/esm/api";

// A reader that stops early (`manifest-resolver check --json | head`) is not an error.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

register();
const { main } = await import("../scripts/cli.ts");
process.exitCode = await main(process.argv.slice(2));
