/**
 * The CLI run inside the test's own process, as bin/manifest-resolver.js runs it in a process of its own: for tests
 * that need only what a run prints and its exit status. A spawned run pays for Node's start and for loading the CLI,
 * most of what a small run costs; here that is paid once per test file.
 *
 * A run owns the process's working directory, environment and console while it lasts, so runs take turns. Tests
 * that need a process of the CLI's own (killed, signalled, holding a lock against another, the packaged bin, a
 * server) spawn it (processes.ts).
 */
import { Console } from "node:console";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import type { main } from "../../scripts/commands/main.ts";
import { ROOT } from "./paths.ts";
import type { Finished } from "./processes.ts";

type Main = typeof main;
/** What a run printed, by stream. */
type Printed = { stdout: string; stderr: string };

let loaded: Promise<Main> | undefined;
/** The CLI the bin would run: the prebuilt one when it is fresh, else the sources (bin/load-cli.js). */
function loadMain(): Promise<Main> {
  // A path in a variable: bin/ is JavaScript, without types; its loadCli() answers a module whose main is Main.
  const loader = pathToFileURL(`${ROOT}bin/load-cli.js`).href;
  loaded ??= import(loader).then(async ({ loadCli }) => (await loadCli()).main as Main);
  return loaded;
}

let turn: Promise<unknown> = Promise.resolve();

/**
 * `manifest-resolver ARGS` in `cwd`, with `env` over this process's environment (a variable given as undefined
 * unset) and GitHub's annotations off.
 */
export function runCliInProcess(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<Finished> {
  // The bin answers --version itself, without loading the CLI: only a process of its own runs that.
  if (args[0] === "--version" || args[0] === "-V") throw new Error("--version is the bin's own: spawn it (runCli)");
  const run = turn.then(() => runNow(args, cwd, { GITHUB_ACTIONS: "", ...env }));
  turn = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], cwd: string, env: Record<string, string | undefined>): Promise<Finished> {
  const cli = await loadMain();
  const printed: Printed = { stdout: "", stderr: "" };
  const sink = (stream: keyof Printed) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        printed[stream] += chunk.toString();
        done();
      },
    });
  const restore = borrowProcess(cwd, env, new Console({ stdout: sink("stdout"), stderr: sink("stderr") }), printed);
  let status: number;
  try {
    status = await cli(args);
  } catch (error) {
    // What Node does with an error the bin lets escape: its stack on stderr, and exit status 1.
    printed.stderr += `${(error as Error).stack ?? String(error)}\n`;
    status = 1;
  } finally {
    restore();
  }
  return { status, ...printed };
}

/** Gives a run the working directory, environment and output it would have as a process; returns the undo. */
function borrowProcess(
  cwd: string,
  env: Record<string, string | undefined>,
  console: Console,
  printed: Printed,
): () => void {
  const saved = { cwd: process.cwd(), env: { ...process.env }, console: globalThis.console };
  process.chdir(cwd);
  for (const [name, value] of Object.entries(env))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  globalThis.console = console;
  const streams = [borrowStream("stdout", printed), borrowStream("stderr", printed)];
  return () => {
    process.chdir(saved.cwd);
    for (const name of Object.keys(process.env)) if (!(name in saved.env)) delete process.env[name];
    Object.assign(process.env, saved.env);
    globalThis.console = saved.console;
    for (const undo of streams) undo();
  };
}

/** Makes process[name] what a spawned run's is, a pipe (no terminal), whose text goes to `printed`; returns the undo. */
function borrowStream(name: keyof Printed, printed: Printed): () => void {
  const stream = process[name];
  const own = {
    write: Object.getOwnPropertyDescriptor(stream, "write"),
    isTTY: Object.getOwnPropertyDescriptor(stream, "isTTY"),
  };
  const write = stream.write;
  Object.defineProperty(stream, "isTTY", { value: false, configurable: true, writable: true });
  // Text is the run's (`new` writes its manifest so); the test runner's own reports to its parent are bytes.
  stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk !== "string") return Reflect.apply(write, this, [chunk, ...rest]);
    printed[name] += chunk;
    const done = rest.at(-1);
    if (typeof done === "function") queueMicrotask(() => done());
    return true;
  } as typeof stream.write;
  return () => {
    for (const key of ["write", "isTTY"] as const) {
      const descriptor = own[key];
      if (descriptor === undefined) Reflect.deleteProperty(stream, key);
      else Object.defineProperty(stream, key, descriptor);
    }
  };
}
