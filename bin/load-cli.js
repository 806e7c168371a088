// The CLI's module: the prebuilt bundle in lib/cli/ (tools/build-cli.ts). An installed
// package has nothing else: it ships no sources. In this repository (sources beside it;
// the bundle is built by `npm test` and `npm start`) the bundle runs when it is newer than
// every file it was built from, so that a command starts without compiling TypeScript;
// else the sources run through tsx, a devDependency, which compiles each module on first
// import: ~0.5 s slower to start, but never stale after an edit.
import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const prebuilt = `${root}lib/cli/cli.js`;
const sources = `${root}scripts/commands/main.ts`;

export async function loadCli() {
  if (!existsSync(sources) || isFresh()) return import(prebuilt);
  const { register } = await import("tsx/esm/api");
  register();
  return import(sources);
}

function isFresh() {
  try {
    const built = statSync(prebuilt).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(`${root}lib/cli/inputs.json`, "utf8"));
    return inputs.every((input) => statSync(root + input).mtimeMs <= built);
  } catch {
    return false;
  }
}
