/**
 * `npm create manifest-resolver@latest [DIR]`: a publisher's repository from nothing, in one command. It makes DIR,
 * installs manifest-resolver as a devDependency, and then runs that package's own commands, exactly as the README has
 * a publisher run them: `init` (for the resolver's URL and host), `keygen` (a signing key outside the repository,
 * pinned), `new` and `sign` (one example manifest). It writes nothing of its own but DIR and its package.json, so
 * what a project holds is what the installed version makes.
 *
 * Bundled by tools/pack.ts into bin/create.js, with no dependency: `npm create` fetches this package alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { shellWord } from "../../scripts/report/fix-hints.ts";

const HELP = `Usage: npm create manifest-resolver@latest [DIR] -- [--yes] [--resolver-url URL] [--host HOST]
                                                      [--package SPEC]

Makes DIR (default: my-manifests) a publisher's repository of signed Universal Manifest
documents: installs manifest-resolver as a devDependency, runs its init for the
resolver's URL and host, makes a signing key outside the repository and pins it, and
signs one example manifest. Then: cd DIR && npm run dev.

Options:
  --resolver-url URL  where the resolver will be deployed (default, with --yes: the local
                      one, http://localhost:8787, which npm run dev serves)
  --host HOST         netlify, cloudflare or both (default, with --yes: both)
  --yes               ask nothing: take the defaults
  --package SPEC      what to install as manifest-resolver: a version, a tarball, a folder
                      (default: the version of this package)`;

const LOCAL_RESOLVER = "http://localhost:8787";
const HOSTS = ["netlify", "cloudflare", "both"];

/** This package's version: the one of manifest-resolver it installs, as both are released together. */
function ownVersion(): string {
  return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      yes: { type: "boolean", short: "y" },
      "resolver-url": { type: "string" },
      host: { type: "string" },
      package: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 1) return usage(`one DIR at most, not ${positionals.length}`);
  const asking = values.yes !== true && process.stdin.isTTY === true;
  const ask = asking ? await prompter() : undefined;
  try {
    const dir = resolve(positionals[0] ?? (await ask?.("Folder", "my-manifests")) ?? "my-manifests");
    if (existsSync(dir) && readdirSync(dir).length > 0) return usage(`${dir} is not empty: name a new folder`);
    const resolverUrl =
      values["resolver-url"] ?? (await ask?.("Your resolver's URL, where it will be deployed", LOCAL_RESOLVER));
    const host = values.host ?? (await ask?.(`Host (${HOSTS.join(", ")})`, "both")) ?? "both";
    if (!HOSTS.includes(host)) return usage(`--host must be ${HOSTS.join(", ")}, not '${host}'`);
    ask?.close();

    const made = !existsSync(dir);
    try {
      mkdirSync(dir, { recursive: true });
      const name = basename(dir);
      writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name, private: true }, null, 2)}\n`);
      // A repository from the start: the workflows init writes, and check --base, work on git's history.
      spawnSync("git", ["init", "--quiet"], { cwd: dir, stdio: "ignore" });
      step(`installing manifest-resolver in ${dir}`);
      execFileSync(npm(), ["install", "--save-dev", values.package ?? `manifest-resolver@^${ownVersion()}`], {
        cwd: dir,
        stdio: ["ignore", "inherit", "inherit"],
      });
      const tool = (...args: string[]) =>
        execFileSync(
          process.execPath,
          [join(dir, "node_modules/manifest-resolver/bin/manifest-resolver.js"), ...args],
          {
            cwd: dir,
            stdio: ["ignore", "inherit", "inherit"],
          },
        );
      step("init");
      tool("init", "--resolver-url", resolverUrl ?? LOCAL_RESOLVER, "--host", host);
      step("a signing key");
      tool("keygen");
      step("an example manifest, signed");
      tool("new", "--file", "content/first.jsonld");
      tool("sign", "content");
    } catch (error) {
      // A step failed (the install, most often): no half a project is left to be taken for one, or to make a
      // second run refuse the folder as not empty. A key keygen wrote is outside it, and stays.
      rmSync(dir, { recursive: true, force: true });
      if (!made) mkdirSync(dir);
      throw new Error(`${(error as Error).message.split("\n")[0]}; ${dir} is as it was before`);
    }
    console.log(
      `\nDone. Now:\n  cd ${shellWord(relative(process.cwd(), dir) || ".")}\n  npm run dev\nand open the lookup page it prints.`,
    );
    return 0;
  } finally {
    ask?.close();
  }
}

function step(what: string): void {
  console.log(`\n> ${what}`);
}

function usage(message: string): number {
  console.error(`create-manifest-resolver: ${message}\nRun with --help for usage.`);
  return 2;
}

/** npm as this platform names it. */
function npm(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

/** A question on the terminal, with its default taken on an empty answer. */
async function prompter() {
  const lines = createInterface({ input: process.stdin, output: process.stdout });
  const ask = async (question: string, fallback: string) =>
    (await lines.question(`${question} (${fallback}): `)).trim() || fallback;
  return Object.assign(ask, { close: () => lines.close() });
}

process.exitCode = await main().catch((error: Error) => {
  console.error(`create-manifest-resolver: ${error.message}`);
  return 1;
});
