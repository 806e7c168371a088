/** Running git: one process, its output collected. */
import { spawn } from "node:child_process";

/** `git -C cwd ARGS`, its output collected. */
export async function git(
  cwd: string,
  args: string[],
): Promise<{ status: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn("git", ["-C", cwd, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await exitOf(child);
  return { status, stdout: Buffer.concat(stdout), stderr };
}

export function exitOf(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
}
