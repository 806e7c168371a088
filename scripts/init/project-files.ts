/**
 * What `manifest-resolver init` writes: a publisher's repository that runs this package
 * and copies none of its code. The edge functions re-export the package's handler and the
 * workflows run its CLI, so `npm update` is how the publisher gets fixes; the workflows
 * are this repository's own (TOOL_ASSETS), which check its sample content the same way.
 */
import { readFileSync } from "node:fs";
import { toolAsset } from "../runtime/tool-files.ts";
import { CONFIG_FILE } from "../config.ts";

export interface ProjectFile {
  /** Its path in the publisher's repository. */
  path: string;
  text: string;
}

/** Netlify's default folder for edge functions: each file is one, named by the file. */
const NETLIFY_FUNCTION = "netlify/edge-functions/resolver.ts";
const WORKER = "cloudflare/worker.ts";

/** The scripts `init` adds to package.json. */
export const PACKAGE_SCRIPTS: Record<string, string> = {
  check: "manifest-resolver check",
  build: "manifest-resolver build",
  // The lookup page on a second port, asking the resolver served on the first.
  start: "manifest-resolver build && manifest-resolver serve --ui-port 8788",
  // Built again, signed with the project's key, at each save.
  dev: "manifest-resolver dev --sign",
};

/** The hosts `init` writes the settings of: Netlify's, Cloudflare's, or both. */
export const HOSTS = ["netlify", "cloudflare", "both"] as const;
export type Host = (typeof HOSTS)[number];

/**
 * `init`'s files for the project `name`, whose resolver is at `resolverUrl` ("" when not said yet), on `host`, and
 * whose private keys go in `keysDir`.
 */
export function projectFiles(
  name: string,
  { resolverUrl, keysDir, host }: { resolverUrl: string; keysDir: string; host: Host },
): ProjectFile[] {
  const settings = { ...(resolverUrl !== "" && { resolverUrl }), keysDir };
  const netlify = host !== "cloudflare";
  const cloudflare = host !== "netlify";
  return [
    { path: CONFIG_FILE, text: `${JSON.stringify(settings, null, 2)}\n` },
    { path: "content/_keys.json", text: "{}\n" },
    {
      path: "content/README.md",
      text:
        "The manifests this repository publishes (`*.jsonld`, signed; any folders), the keys " +
        "that may sign them (`_keys.json`) and the resolver's redirects, revocations and " +
        "suspensions (`_routes.json`, written by `manifest-resolver revoke`, `redirect`, `suspend`).\n",
    },
    ...(netlify
      ? [
          { path: NETLIFY_FUNCTION, text: reexport("manifest-resolver/netlify") },
          { path: "netlify.toml", text: netlifyToml() },
        ]
      : []),
    ...(cloudflare
      ? [
          { path: WORKER, text: reexport("manifest-resolver/cloudflare") },
          { path: "wrangler.jsonc", text: wranglerConfig(name) },
        ]
      : []),
    ...([".github/workflows/manifests-pull-request.yml", ".github/workflows/manifests-main.yml"] as const).map(
      (path) => ({ path, text: readFileSync(toolAsset(path), "utf8") }),
    ),
    {
      path: ".gitignore",
      text: [
        "node_modules/",
        "# The build's output.",
        "dist/",
        "dist-lookup/",
        "dist-kv/",
        "# Private keys never belong in the repository.",
        "*.pem",
        "# A command at work holds FILE.lock beside what it writes.",
        "*.lock",
        "# The hosts' local state (netlify dev, wrangler dev).",
        ".netlify/",
        ".wrangler/",
        "",
      ].join("\n"),
    },
  ];
}

function reexport(specifier: string): string {
  return (
    `// The resolver's edge handler, from the installed package: \`npm update\` brings its fixes.\n` +
    `export { default } from "${specifier}";\n`
  );
}

function netlifyToml(): string {
  return `# Netlify builds content/ into dist/ on every push, and a deploy preview for every pull
# request. Nothing is deployed when a manifest fails the check. The edge function
# (${NETLIFY_FUNCTION}) answers the resolver's contract from dist/.

[build]
  command = "npm run build"
  publish = "dist"

[build.environment]
  NODE_VERSION = "22"

# Every path and every method: other methods must get the contract's 405.
[[edge_functions]]
  path = "/*"
  function = "resolver"
`;
}

function wranglerConfig(name: string): string {
  return `// Cloudflare Workers: \`npm run build && npx wrangler deploy\`. The worker answers every path
// before the static assets, reading the build output through the ASSETS binding.
{
  "name": ${JSON.stringify(name)},
  "main": "${WORKER}",
  "compatibility_date": "2026-04-01",
  "assets": {
    "directory": "./dist",
    "binding": "ASSETS",
    "run_worker_first": true,
    "html_handling": "none",
    "not_found_handling": "none"
  }
}
`;
}
