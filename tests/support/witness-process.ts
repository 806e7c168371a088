/**
 * `manifest-resolver witness serve` as a process (the bundled CLI, `npm run build:cli` first), on a free port, once
 * its first line says where it listens: for the tests of the witness and those that need real witnesses.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { CLI } from "./paths.ts";

export interface WitnessProcess {
  url: string;
  child: ChildProcess;
  /** The JSON lines it printed, so far. */
  lines: Record<string, unknown>[];
  /** SIGTERM, and its exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, at once. */
  kill(): Promise<void>;
}

/** `witness serve --key KEY --logs LOGS --name NAME --state STATE` on a free port. */
export function startWitnessServe(options: {
  key: string;
  logs: string;
  name: string;
  state: string;
}): Promise<WitnessProcess> {
  const { key, logs, name, state } = options;
  const args = ["witness", "serve", "--key", key, "--logs", logs, "--name", name, "--port", "0"];
  const child = spawn(process.execPath, [CLI, ...args, "--state", state], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk;
      const complete = stdout.split("\n");
      stdout = complete.pop()!;
      for (const line of complete) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        if (typeof parsed.listening === "string")
          resolve({
            url: parsed.listening,
            child,
            lines,
            stop: () => {
              child.kill("SIGTERM");
              return exited;
            },
            kill: async () => {
              child.kill("SIGKILL");
              await exited;
            },
          });
      }
    });
    void exited.then((code) => reject(new Error(`witness serve exited with ${code}:\n${stderr}`)));
  });
}
