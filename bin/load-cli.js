// The CLI's module: the prebuilt bundle in lib/cli/ (scripts/build-cli.ts, run at `npm ci`
// and by `npm test`) when it is newer than every file it was built from, so that a command
// starts without compiling TypeScript; else the sources through tsx, which compiles each
// module on first import: ~0.5 s slower to start, but never stale after an edit.
import { readFileSync, statSync } from "node:fs";

const root = new URL("../", import.meta.url);
const prebuilt = new URL("lib/cli/cli.js", root);

export async function loadCli() {
  if (isFresh()) return import(prebuilt.href);
  const { register } = await import("tsx/esm/api");
  register();
  return import(new URL("scripts/cli.ts", root).href);
}

function isFresh() {
  try {
    const built = statSync(prebuilt).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(new URL("lib/cli/inputs.json", root), "utf8"));
    return inputs.every((input) => statSync(new URL(input, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}
