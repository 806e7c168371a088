/** Starting a server process for a test and reading the URL it prints. */
import { spawn, type ChildProcess } from "node:child_process";
import { CLI } from "./paths.ts";

export interface Started {
  url: string;
  /** The process, where there is one of its own. */
  pid?: number;
  /** Every URL it printed, in order, when it was asked to wait for several. */
  urls: string[];
  /** What its process printed until then, where it is one. */
  output?: string;
  stop(): Promise<void>;
}

/**
 * The two addresses `serve --ui-port` and `dev` print, by their lines (the lookup page's first): the resolver's
 * without its final slash, as a base URL; the page's as printed, with it.
 */
export function servedAt({ output = "" }: Started): { resolver: string; page: string } {
  const resolver = /^serving .* at (http:\S+)\/$/m.exec(output)?.[1];
  const page = /^lookup page at (http:\S+)$/m.exec(output)?.[1];
  if (resolver === undefined || page === undefined) throw new Error(`no resolver and lookup page printed:\n${output}`);
  return { resolver, page };
}

/** Spawns `command` (in `cwd`) and resolves once its output holds `count` http:// URLs. */
export function startPrintingUrl(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  count = 1,
  cwd = process.cwd(),
): Promise<Started> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${command} printed no URL in 30s:\n${output}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const urls = output.match(/http:\/\/[^\s/]+/g) ?? [];
      if (urls.length < count) return;
      clearTimeout(timer);
      resolve({ url: urls[0]!, urls, output, pid: child.pid!, stop: () => stopProcess(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => fail(new Error(`${command} exited with ${code} before printing a URL:\n${output}`)));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // A process that ignores SIGTERM (a Node wrapper blocked in spawnSync does) is killed
    // after 5 s, rather than hanging the suite.
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.removeAllListeners("exit");
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` in `cwd` and collects what it printed, asynchronously (so that a test server can answer it). */
export async function runCommand(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Finished> {
  const child = spawn(command, args, { cwd, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c));
  child.stderr.on("data", (c: Buffer) => (stderr += c));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  return { status, stdout, stderr };
}

/** Runs the CLI as a person would, with GitHub's annotations off (a variable of `env` given as undefined unset). */
export function runCli(args: string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<Finished> {
  return runCommand(process.execPath, [CLI, ...args], cwd, { ...process.env, GITHUB_ACTIONS: "", ...env });
}
