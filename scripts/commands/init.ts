/**
 * `manifest-resolver init [DIR]`: a publisher's repository, from an empty folder or one
 * with only a package.json (scripts/init/project-files.ts says what is written). Nothing is
 * overwritten without --force, and nothing is written at all when anything is in the way:
 * every file is checked first, then each is written atomically.
 */
import { existsSync, lstatSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isJsonObject, parseJson, type ShapeLimits } from "../../core/json/strict-json.ts";
import { lineColumn } from "../../core/json/source-map.ts";
import { detectStyle, DEFAULT_STYLE, formatJson } from "../edit/json-file.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { pathInTheWay } from "../edit/path-in-the-way.ts";
import { type Host, HOSTS, PACKAGE_SCRIPTS, type ProjectFile, projectFiles } from "../init/project-files.ts";
import { type ByteLimit, displayPath, readSourceText } from "../read/files.ts";
import { printable } from "../report/diagnostics.ts";
import { toolPackage } from "../runtime/tool-files.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import { baseUrlProblem } from "../../core/http/base-url.ts";
import { defaultKeysDir } from "../config.ts";
import type { init } from "./init-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

const PACKAGE = "manifest-resolver";

/** Far beyond any package.json a project writes, and within what the parser can nest. */
const PACKAGE_JSON_LIMIT: ByteLimit = { bytes: 16 * 1024 * 1024, setBy: "fixed for package.json" };
const PACKAGE_JSON_SHAPE: ShapeLimits = { maxDepth: 64, maxArrayItems: Number.POSITIVE_INFINITY };

export const runInit: CommandRun<typeof init> = async (values, [dir = "."]) => {
  const root = resolve(dir);
  const manifest = readPackageJson(join(root, "package.json"));
  if ("problem" in manifest) {
    console.error(printable(`manifest-resolver: ${manifest.problem}`));
    return EXIT_FAILED;
  }
  const name = projectName(manifest.value, root);
  const resolverUrl = values["resolver-url"] ?? "";
  const urlProblem = resolverUrl === "" ? undefined : baseUrlProblem(resolverUrl);
  if (urlProblem !== undefined) throw new UsageError(`--resolver-url: ${urlProblem}`);
  const host = values.host as Host;
  if (!(HOSTS as readonly string[]).includes(host))
    throw new UsageError(`--host must be ${HOSTS.join(", ")}, not '${values.host}'`);
  const files = projectFiles(name, { resolverUrl, keysDir: defaultKeysDir(root), host });
  const scripts = isJsonObject(manifest.value.scripts) ? manifest.value.scripts : {};
  const packageJson = { path: "package.json", text: withScripts(manifest, root) };
  // Refused even with --force: what is overwritten then must be the project's own files, each written whole.
  const blocked = new Map(
    [...files, packageJson].flatMap((file) => {
      const inTheWay = pathInTheWay(root, file.path);
      return inTheWay === undefined ? [] : [[inTheWay.path, inTheWay.is]];
    }),
  );
  // package.json is edited, not written anew: through a link, init would read one file and replace the link.
  if (lstatSync(join(root, packageJson.path), { throwIfNoEntry: false })?.isSymbolicLink())
    blocked.set(packageJson.path, "a symbolic link");
  if (blocked.size > 0) {
    for (const [path, is] of blocked)
      console.error(
        printable(
          `manifest-resolver: ${displayed(root, path)} is ${is}: init writes its files only in ${displayPath(root)}, ` +
            "in folders of their own",
        ),
      );
    console.error("manifest-resolver: nothing was written; move each aside, and run init again");
    return EXIT_FAILED;
  }
  const inWay = [
    // A link is in the way too, even one that points nowhere: lstat, not exists.
    ...files
      .filter((file) => lstatSync(join(root, file.path), { throwIfNoEntry: false }) !== undefined)
      .map((file) => `${displayed(root, file.path)} exists`),
    ...Object.entries(PACKAGE_SCRIPTS)
      .filter(([script, command]) => scripts[script] !== undefined && scripts[script] !== command)
      .map(([script]) => `${displayed(root, "package.json")} has a "${script}" script of its own`),
  ];
  if (inWay.length > 0 && !values.force) {
    for (const line of inWay) console.error(printable(`manifest-resolver: ${line}`));
    console.error("manifest-resolver: nothing was written; move those aside, or run init again with --force");
    return EXIT_FAILED;
  }
  const failure = await writeAll(root, [...files, packageJson]);
  if (failure !== undefined) {
    console.error(printable(`manifest-resolver: ${failure}`));
    return EXIT_FAILED;
  }
  for (const file of [...files, packageJson]) console.log(printable(`wrote ${displayed(root, file.path)}`));
  for (const line of nextSteps(root)) console.log(printable(line));
  return EXIT_OK;
};

/**
 * Writes each file, atomically; undefined once all are written. When the file system
 * refuses one (a full disk, a read-only folder), what this run made is removed, so that no
 * half a project is left, and the refusal is returned in one line. A file --force replaced
 * stays replaced: its old bytes are gone.
 */
async function writeAll(root: string, files: ProjectFile[]): Promise<string | undefined> {
  const made: string[] = [];
  const replaced: string[] = [];
  let writing = "";
  try {
    for (const file of files) {
      writing = file.path;
      const path = join(root, file.path);
      const folder = await mkdir(dirname(path), { recursive: true });
      if (folder !== undefined) made.push(folder);
      const existed = lstatSync(path, { throwIfNoEntry: false }) !== undefined;
      await writeFileAtomically(path, file.text);
      if (existed) replaced.push(displayed(root, file.path));
      else made.push(path);
    }
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    for (const path of made.reverse()) await rm(path, { recursive: true, force: true });
    return (
      `cannot write ${displayed(root, writing)}: ${(error as Error).message}; ` +
      (replaced.length === 0
        ? "nothing was written"
        : `nothing was written but ${replaced.join(", ")}, replaced (--force) before it`)
    );
  }
}

type PackageJson = { value: Record<string, unknown>; text?: string } | { problem: string };

/** The folder's package.json, if it has one; a file that is not a JSON object is a problem, not overwritten. */
function readPackageJson(path: string): PackageJson {
  const read = readSourceText(path, PACKAGE_JSON_LIMIT);
  if ("diagnostic" in read) {
    if (read.missing) return { value: {} };
    return { problem: `${read.diagnostic.file} - ${read.diagnostic.message}; nothing was written` };
  }
  const parsed = parseJson(read.text, PACKAGE_JSON_SHAPE);
  if (!parsed.ok) {
    const { line, column } = lineColumn(read.text, parsed.problem.offset);
    return { problem: `${displayPath(path)}:${line}:${column} - ${parsed.problem.message}; nothing was written` };
  }
  if (!isJsonObject(parsed.value))
    return { problem: `${displayPath(path)}: must hold a JSON object; nothing was written` };
  return { value: parsed.value, text: read.text };
}

/** package.json with init's scripts, and this package as a devDependency unless it is a dependency already. */
function withScripts({ value, text }: { value: Record<string, unknown>; text?: string }, root: string): string {
  const scripts = isJsonObject(value.scripts) ? value.scripts : {};
  const dependencies = [value.dependencies, value.devDependencies].filter(isJsonObject);
  const devDependencies = isJsonObject(value.devDependencies) ? value.devDependencies : {};
  const updated = {
    ...(text === undefined ? { name: projectName(value, root), private: true } : {}),
    ...value,
    scripts: { ...scripts, ...PACKAGE_SCRIPTS },
    ...(dependencies.some((deps) => deps[PACKAGE] !== undefined)
      ? {}
      : { devDependencies: { ...devDependencies, [PACKAGE]: `^${toolPackage().version}` } }),
  };
  return formatJson(updated, text === undefined ? DEFAULT_STYLE : detectStyle(text));
}

/** The Worker's name: package.json's name, else the folder's, as Cloudflare allows one (lower case, digits, -). */
function projectName(value: Record<string, unknown>, root: string): string {
  const given = typeof value.name === "string" ? value.name.replace(/^@[^/]*\//, "") : basename(root);
  const name = given
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
  return name === "" ? "manifest-resolver" : name;
}

function displayed(root: string, path: string): string {
  return relative(process.cwd(), join(root, path)) || path;
}

/** The next three commands: a key (pinned by keygen), a manifest, its signature. */
function nextSteps(root: string): string[] {
  const here = relative(process.cwd(), root);
  const installed = existsSync(join(root, "node_modules", PACKAGE, "package.json"));
  return [
    "",
    `next${here === "" ? "" : `, in ${here}`}${installed ? "" : ", after npm install"}: make a signing key (keygen pins it), write a manifest, sign it:`,
    "  npx manifest-resolver keygen",
    "  npx manifest-resolver new --file content/first.jsonld",
    "  npx manifest-resolver sign content",
  ];
}
