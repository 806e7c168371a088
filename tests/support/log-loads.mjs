// `node --import ./tests/support/log-loads.mjs …`: each file of the prebuilt CLI (lib/cli/) that Node loads, one
// `loaded FILE` line on stderr, so that a test can tell which of the bundle's files a command loads.
import { register } from "node:module";

// Written at once by the hooks' thread (writeSync): process.stderr.write there is asynchronous, and a command that
// exits soon after its last load (probe --help) lost that line now and then.
const hook = `import { writeSync } from "node:fs";
export async function load(url, context, next) {
  const at = url.indexOf("/lib/cli/");
  if (at >= 0) writeSync(2, "loaded " + url.slice(at + "/lib/cli/".length) + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
