/** `manifest-resolver serve`: answer the contract locally from a built output directory. */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { serveNode } from "../../edge/adapters/node.ts";
import { RECORD_MAP_PATH } from "../../edge/records.ts";
import { EXIT_FAILED, stringOption, UsageError, type Command } from "./command.ts";

export const serve: Command = {
  name: "serve",
  summary: "serve a built dist/ through the resolver's edge handler, until stopped",
  help: `Usage: manifest-resolver serve [--dist DIR] [--port N] [--host H]

Serves the output of 'manifest-resolver build' through the same handler that runs on
Netlify and Cloudflare, and prints its URL. Stop it with Ctrl+C.

Options:
  --dist DIR   built output directory (default: dist)
  --port N     TCP port, 0 for any free port (default: 8787)
  --host H     address to listen on (default: 127.0.0.1)

Exit status: 0 stopped, 1 cannot serve (no build output, port in use), 2 usage error.

Example:
  manifest-resolver serve --dist dist --port 8787`,
  options: {
    dist: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const dist = stringOption(values, "dist", "dist");
    const host = stringOption(values, "host", "127.0.0.1");
    const portText = stringOption(values, "port", "8787");
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535, not '${portText}'`);

    try {
      await access(join(dist, RECORD_MAP_PATH));
    } catch {
      console.error(`manifest-resolver: ${join(dist, RECORD_MAP_PATH)} not found: run 'manifest-resolver build' first`);
      return EXIT_FAILED;
    }
    let running;
    try {
      running = await serveNode({ dist, port, host });
    } catch (error) {
      console.error(`manifest-resolver: cannot listen on ${host}:${port}: ${(error as Error).message}`);
      return EXIT_FAILED;
    }
    console.log(`serving ${dist}/ at ${running.url}/`);
    return new Promise((resolve) => {
      const stop = () => {
        running.server.close(() => resolve(0));
        running.server.closeAllConnections();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
};
