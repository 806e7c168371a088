/**
 * `manifest-resolver serve`: answer the contract locally from a built output directory.
 * The declaration: all that --help and a usage error need; the run is serve.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { join } from "node:path";
import { projectRoot } from "../read/content-root.ts";
import { integerOption, stringOption } from "../cli/options.ts";
import { PORT } from "./shared-options.ts";

export const serve = declareCommand({
  name: "serve",
  description: `Serves the output of 'manifest-resolver build' through the same handler that runs on
Netlify and Cloudflare, and prints its URL. A rebuild is picked up without a restart.
Stop it with Ctrl+C. An output left aside by a build killed mid-swap is put back first.`,
  epilogue: `Exit status: 0 stopped, 1 cannot serve (no build output, port in use), 2 usage error.

Example:
  manifest-resolver serve --dist dist --port 8787 --ui-port 8788`,
  positionals: [],
  options: {
    dist: stringOption({
      value: "DIR",
      help: "built output directory",
      default: { text: "the repository's dist/", value: () => join(projectRoot(), "dist") },
    }),
    port: integerOption({ ...PORT, help: "TCP port, 0 for any free port", default: 8787 }),
    host: stringOption({ value: "H", help: "address to listen on", default: "127.0.0.1" }),
    "ui-port": integerOption({
      ...PORT,
      help: "also serve the lookup page on this port (another origin), asking this resolver",
    }),
  },
});
