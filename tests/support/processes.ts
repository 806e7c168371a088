/** Starting a server process for a test and reading the URL it prints. */
import { spawn, type ChildProcess } from "node:child_process";

export interface Started {
  url: string;
  stop(): Promise<void>;
}

/** Spawns `command` and resolves once a line of its output holds an http:// URL. */
export function startPrintingUrl(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
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
      const url = /http:\/\/[^\s/]+/.exec(output)?.[0];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stop: () => stopProcess(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => fail(new Error(`${command} exited with ${code} before printing a URL:\n${output}`)));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
