// The CLI's module: the prebuilt bundle in lib/cli/ (tools/build-cli.ts, run at `npm ci`
// and by `npm test`) when it is newer than every file it was built from, so that a command
// starts without compiling TypeScript; else the sources through tsx, which compiles each
// module on first import: ~0.5 s slower to start, but never stale after an edit.
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const prebuilt = `${root}lib/cli/cli.js`;

export async function loadCli() {
  if (isFresh()) return import(prebuilt);
  const { register } = await import("tsx/esm/api");
  register();
  return import(`${root}scripts/cli.ts`);
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
