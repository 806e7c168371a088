/**
 * `manifest-resolver dev`: the resolver and its lookup page served locally, built again at each change of content/.
 * The declaration: all that --help and a usage error need; the run is dev.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { booleanOption, integerOption, stringOption } from "../cli/options.ts";
import { CONTENT_OPTION, OUT_OPTION, PORT } from "./shared-options.ts";

export const dev = declareCommand({
  name: "dev",
  description: `Builds the content, serves it as 'serve' does with the lookup page beside it, and
watches the content folder: at each change it builds again in place (with --sign, it
first signs the manifests changed, with the project's key) and keeps serving. Each build
prints one line with the time and what it took; a build refused for its content prints
its problems and leaves the last good output served. An open lookup page asks its
question again after each build. Stop it with Ctrl+C.`,
  epilogue: `Exit status: 0 stopped, 1 the first build refused or a port in use, 2 usage error.

Example:
  manifest-resolver dev --sign`,
  positionals: [],
  options: {
    ...CONTENT_OPTION,
    ...OUT_OPTION,
    sign: booleanOption({
      help: "sign each manifest changed before building, with the project's key and keyRef (as sign does)",
    }),
    port: integerOption({ ...PORT, help: "the resolver's TCP port, 0 for any free port", default: 8787 }),
    "ui-port": integerOption({ ...PORT, help: "the lookup page's TCP port, 0 for any free port", default: 8788 }),
    host: stringOption({ value: "H", help: "address to listen on", default: "127.0.0.1" }),
  },
});
