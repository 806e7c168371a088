/**
 * `manifest-resolver init [DIR]`: a publisher's repository, from an empty folder or one
 * with only a package.json (scripts/init/project-files.ts says what is written). Nothing is
 * overwritten without --force, and nothing is written at all when anything is in the way:
 * every file is checked first, then each is written atomically.
 * The declaration: all that --help and a usage error need; the run is init.ts.
 */
import { declareCommand } from "../cli/command.ts";
import { booleanOption, stringOption } from "../cli/options.ts";

export const init = declareCommand({
  name: "init",
  description: `Makes DIR (made if missing) a publisher's repository: manifest-resolver.json, the
project's settings (its resolver's URL, and the keys folder outside the repository,
~/.manifest-keys/<name>), content/ with a _keys.json that keygen fills in, netlify.toml and wrangler.jsonc with edge functions that re-export this
package's handler, GitHub Actions workflows for pull requests and for main, a .gitignore,
and the check, build, start and dev scripts in package.json (made if missing, with this
package as a devDependency). Nothing copies code out of the package: \`npm update\` brings
its fixes. A file that exists is never overwritten: init lists each one in the way and
writes nothing, unless --force.`,
  epilogue: `Exit status: 0 written, 1 nothing written (files in the way; a symbolic link, or a file, where it needs a folder; a package.json that is not JSON, or too large or deep), 2 usage error.

Example:
  mkdir my-manifests && cd my-manifests && npm install -D manifest-resolver && npx manifest-resolver init`,
  settings: false,
  positionals: [{ name: "DIR" }],
  options: {
    force: booleanOption({ help: "overwrite files that exist, and package.json scripts of the same names" }),
    host: stringOption({
      value: "HOST",
      help: "where the resolver will run: netlify (netlify.toml and its edge function), cloudflare (wrangler.jsonc and its Worker) or both",
      default: "both",
    }),
    "resolver-url": stringOption({
      value: "URL",
      help: "the resolver's base URL, where it will be deployed (https://you.example)",
      default: { text: "none yet: set resolverUrl in manifest-resolver.json later" },
    }),
  },
});
