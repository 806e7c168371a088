/**
 * `manifest-resolver dev`: build, serve, and at each change of the content folder sign (when asked) and build again,
 * in place, while the same servers go on answering. Each build runs as its own process of this CLI, as `build` and
 * `sign` run from a shell: what it checks, refuses and writes is theirs to the letter, and a build that fails leaves
 * the output it found, which is served on.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, type FSWatcher, lstatSync, readdirSync, readFileSync, watch } from "node:fs";
import { basename, dirname, join, relative, resolve as absolutePath, sep } from "node:path";
import { displayPath } from "../read/files.ts";
import { printable } from "../report/diagnostics.ts";
import { duration } from "../report/human-units.ts";
import { toolFile } from "../runtime/tool-files.ts";
import { TEMPORARY_NAME } from "../store/atomic-write.ts";
import { PageReloads } from "../lookup-page-files/serve.ts";
import { EXIT_FAILED, type CommandRun } from "../cli/command.ts";
import { projectSettings } from "./project-settings.ts";
import { printServing, startServing } from "./serve.ts";
import type { dev } from "./dev-declaration.ts";

/** How long the folder must be quiet before a build: an editor's save is several events. */
const SETTLE_MS = 100;

/** A manifest's file name, as build finds them (scripts/read/files.ts): `*.json`, `*.jsonld`, not `_`-prefixed. */
const MANIFEST_NAME = /(^|\/)[^_/][^/]*\.jsonld?$/;

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

export const runDev: CommandRun<typeof dev> = async (values) => {
  // A settings file with an error is a usage error now, not at every build.
  const { resolverUrl } = projectSettings();
  const contentDir = values.content;
  const out = displayPath(values.out);
  const { host, port } = values;
  const build = () => cli(["build", "--content", contentDir, "--out", out]);

  const first = await build();
  process.stdout.write(first.stdout);
  process.stderr.write(first.stderr);
  if (first.status !== 0 && !existsSync(join(out, "resolver.json"))) return EXIT_FAILED;
  const reloads = new PageReloads();
  const served = await startServing({
    dist: out,
    host,
    port,
    uiPort: values["ui-port"],
    reloads,
    standsInFor: resolverUrl,
    contentDir,
  });
  if (typeof served === "string") {
    console.error(`manifest-resolver: ${served}`);
    return EXIT_FAILED;
  }
  printServing(out, served);
  console.log(`watching ${displayPath(contentDir)}/${values.sign ? ", signing what changes" : ""}; Ctrl+C stops`);

  /** The files this run wrote itself (signed), by their bytes' digest: their own change is no edit to act on. */
  const written = new Map<string, string>();
  const changed = new Set<string>();
  let settle: NodeJS.Timeout | undefined;
  let building: Promise<void> | undefined;

  const rebuild = async (names: string[]): Promise<void> => {
    const started = performance.now();
    // A file itself: sign would replace a link with the file it points at, signed.
    const manifests = names.filter(
      (name) => MANIFEST_NAME.test(name) && lstatSync(join(contentDir, name), { throwIfNoEntry: false })?.isFile(),
    );
    if (values.sign && manifests.length > 0) {
      const signed = await cli(["sign", ...manifests.map((name) => join(contentDir, name)), "--content", contentDir]);
      for (const name of manifests) {
        written.set(name, digestOf(join(contentDir, name)));
        // What the signing itself changed while it ran is this build's to take, not another's.
        changed.delete(name);
      }
      // What keeps it from signing at all (no key); a file it refused, the build's problems say why.
      process.stderr.write(signed.stderr);
    }
    const built = await build();
    const time = new Date().toTimeString().slice(0, 8);
    const what = names.length === 1 ? names[0]! : `${names.length} files`;
    if (built.status === 0) {
      const counts = /^built .*?: (.*?) \(/m.exec(built.stdout)?.[1] ?? "";
      console.log(printable(`${time} built ${counts} in ${duration(performance.now() - started)} (${what})`));
      reloads.built();
    } else {
      process.stdout.write(built.stdout);
      process.stderr.write(built.stderr);
      console.log(printable(`${time} not built (${what}): still serving the last good output`));
    }
  };

  const next = () => {
    settle = undefined;
    if (building !== undefined || changed.size === 0) return;
    const names = [...changed].sort();
    changed.clear();
    building = rebuild(names).finally(() => {
      building = undefined;
      next();
    });
  };

  const watcher = new FolderWatch(
    contentDir,
    (name) => {
      if (ignored(name)) return;
      const path = join(contentDir, name);
      const mine = written.get(name);
      if (mine !== undefined && existsSync(path) && digestOf(path) === mine) return;
      written.delete(name);
      changed.add(name);
      clearTimeout(settle);
      settle = setTimeout(next, SETTLE_MS);
    },
    () => console.log(`watching ${displayPath(contentDir)}/ again`),
  );

  return new Promise<number>((resolve) => {
    const stop = async () => {
      watcher.close();
      clearTimeout(settle);
      await building;
      await served.stop();
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
};

/**
 * A folder and every folder below it, watched folder by folder: a folder's watch names the entry that changed,
 * whatever now stands there. (Node 20's recursive watch on Linux watches each file, and loses one that an atomic
 * write replaces by a rename, as `sign` and every editor's safe save do.) A watch follows its folder, not its path:
 * a folder removed and made again (a branch switched, a folder restored) is watched anew, the top one through a watch
 * of the folder it is in, since no watch of its own reports its return, and a look at its inode cannot tell it: ext4
 * gives a folder made at once where one was removed that one's inode. A symbolic link is watched as an entry, never
 * followed: `--sign` must not sign, with this project's key, a file of another folder it points at. `onChange` gets
 * the path from `root`, with `/` between folders ("." for the root itself).
 */
class FolderWatch {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #parent: FSWatcher;
  #rootSettle: NodeJS.Timeout | undefined;

  constructor(
    readonly root: string,
    readonly onChange: (name: string) => void,
    /** Told when a folder stands at `root` again, watched anew. */
    readonly onRootBack: () => void,
  ) {
    this.#add(root);
    const name = basename(absolutePath(root));
    this.#parent = watch(dirname(absolutePath(root)), (event, entry) => {
      if (event !== "rename" || entry !== name) return;
      // A removal and a making again come as two events, often together: the folder is looked at once they are over.
      clearTimeout(this.#rootSettle);
      this.#rootSettle = setTimeout(() => this.#rootReplaced(), ROOT_SETTLE_MS);
    });
  }

  /** Whatever stood at the root is gone or replaced: watched anew, when a folder stands there. */
  #rootReplaced(): void {
    this.#drop(this.root);
    this.#add(this.root);
    if (this.#watchers.has(this.root)) this.onRootBack();
    this.onChange(".");
  }

  close(): void {
    this.#parent.close();
    clearTimeout(this.#rootSettle);
    this.#drop(this.root);
  }

  #add(dir: string): void {
    if (this.#watchers.has(dir)) return;
    try {
      const watcher = watch(dir, (_, name) => {
        if (name === null) return;
        const path = join(dir, name);
        this.onChange(relative(this.root, path).split(sep).join("/"));
        // Whatever stood at `path` before is gone or replaced: its watches with it.
        this.#drop(path);
        // A link is not followed (lstat): what it points at is not the content's, and the build refuses the link.
        if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) this.#add(path);
      });
      // A folder removed: its watch ends with it.
      watcher.on("error", () => this.#drop(dir));
      this.#watchers.set(dir, watcher);
      for (const entry of readdirSync(dir, { withFileTypes: true }))
        if (entry.isDirectory()) this.#add(join(dir, entry.name));
    } catch {
      // Gone before it was watched: nothing of it to build.
    }
  }

  /** Ends the watches of `dir` and of every folder below it. */
  #drop(dir: string): void {
    for (const [path, watcher] of this.#watchers)
      if (path === dir || path.startsWith(`${dir}${sep}`)) {
        watcher.close();
        this.#watchers.delete(path);
      }
  }
}

/** How long the events of the content folder's own removal and return are let settle before it is looked at. */
const ROOT_SETTLE_MS = 50;

/** What a change to `name` need not rebuild for: a lock of a command at work, a temporary file of a write. */
function ignored(name: string): boolean {
  const file = basename(name);
  return file.endsWith(".lock") || TEMPORARY_NAME.test(file);
}

function digestOf(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return "";
  }
}

/** This CLI, run as its own process with `args`, as from a shell: what it printed, and its exit status. */
function cli(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [toolFile("bin/manifest-resolver.js"), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (status) =>
      resolve({ status: status ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}
