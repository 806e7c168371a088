/**
 * `npm run lint`'s last step: the package as it would be published, built and packed, then
 * checked by publint (package.json against what the tarball holds) and arethetypeswrong
 * (every `exports` entry's types resolve, for an ESM-only package).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli } from "./build-cli.ts";
import { buildLibrary } from "./build-library.ts";
import { pack } from "./pack.ts";

const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

await buildCli();
await buildLibrary();
const dest = mkdtempSync(join(tmpdir(), "um-pack-"));
try {
  const { tarball, files, size } = pack(dest);
  console.log(`packed ${files.length} files, ${(size / 1024).toFixed(0)} KiB`);
  execFileSync(bin("publint"), ["run", tarball, "--strict"], { stdio: "inherit" });
  execFileSync(bin("attw"), [tarball, "--profile", "esm-only", "--no-emoji", "--no-color"], {
    stdio: "inherit",
  });
} finally {
  rmSync(dest, { recursive: true, force: true });
}
