/**
 * The package as its users get it: packed from what `npm test` built into lib/ (as
 * `prepack` builds it), then installed from the tarball into empty projects with no
 * network. A relying party's, with install scripts off, evaluates a signed manifest and a
 * tampered one. A publisher's runs `init`, then `keygen`, `new`, `sign`, `check`, `build`
 * and `serve`, and the manifest resolves, through `serve` and through the edge functions
 * init wrote, under Deno (Netlify) and workerd (Cloudflare).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { evaluate } from "../core/evaluate/index.ts";
import { pack, type Packed } from "../tools/pack.ts";
import { manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { ROOT } from "./support/paths.ts";
import { startPrintingUrl, type Started } from "./support/processes.ts";
import { startNetlifyFunction, startWorker } from "./support/runtimes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-package-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** npm with no registry to reach: an install that needed one would fail, not hang. */
const NPM_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_"))),
  npm_config_registry: "http://127.0.0.1:9/",
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, env: NPM_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** An empty project with the tarball installed, offline. */
function project(name: string, packageJson: object, installFlags: string[]): string {
  const root = join(scratch, name);
  mkdirSync(root);
  writeFileSync(join(root, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
  run("npm", ["install", "--offline", ...installFlags, packed.tarball], root);
  return root;
}

let packed: Packed;
before(() => {
  packed = pack(scratch);
});

describe("the tarball", () => {
  it("holds what users run, and nothing else", () => {
    const paths = packed.files.map((file) => file.path);
    for (const path of paths)
      assert.match(
        path,
        /^(?:bin\/[^/]+\.js|lib\/.+\.(?:js|d\.ts|html|yml)|README\.md|LICENSE|CHANGELOG\.md|package\.json)$/,
      );
    for (const path of ["LICENSE", "README.md", "CHANGELOG.md", "bin/manifest-resolver.js", "lib/cli/cli.js"])
      assert.ok(paths.includes(path), path);
    assert.ok(!paths.includes("lib/cli/inputs.json"), "the bundle's build inputs name sources the package lacks");
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    assert.equal(manifest.private, undefined);
    assert.equal(manifest.dependencies, undefined, "the CLI and the libraries are bundled: nothing to install");
    for (const [entry, target] of Object.entries(manifest.exports as Record<string, string | Record<string, string>>)) {
      const conditions = typeof target === "string" ? { default: target } : target;
      if (typeof target !== "string") assert.equal(Object.keys(target)[0], "types", `${entry}: types first`);
      for (const file of Object.values(conditions)) assert.ok(paths.includes(file.slice(2)), `${entry}: ${file}`);
    }
  });
});

describe("a relying party's project, install scripts off", () => {
  let root: string;
  before(() => {
    root = project("relying-party", { name: "relying-party", private: true, type: "module" }, ["--ignore-scripts"]);
  });

  it("installs the package alone: it has no dependencies", () => {
    assert.deepEqual(
      readdirSync(join(root, "node_modules")).filter((name) => !name.startsWith(".")),
      ["manifest-resolver"],
    );
  });

  it("evaluates a signed manifest, and rejects it tampered with", () => {
    const manifest = signed(manifestFor("urn:package:relying-party"), newKey());
    writeFileSync(join(root, "signed.json"), JSON.stringify(manifest));
    writeFileSync(join(root, "tampered.json"), JSON.stringify({ ...manifest, subject: "did:web:mallory.example" }));
    writeFileSync(
      join(root, "evaluate.js"),
      'import { readFileSync } from "node:fs";\n' +
        'import { evaluate } from "manifest-resolver/evaluate";\n' +
        'for (const file of ["signed.json", "tampered.json"]) {\n' +
        '  const receipt = await evaluate(readFileSync(file), { now: "2026-06-01T00:00:00Z" }, { offline: true });\n' +
        "  console.log(JSON.stringify([file, receipt.outcome, receipt.signatureCheck]));\n" +
        "}\n",
    );
    const lines = run(process.execPath, ["evaluate.js"], root)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.deepEqual(lines, [
      ["signed.json", "accepted", "valid"],
      ["tampered.json", "rejected", "invalid"],
    ]);
  });

  it("type-checks against every entry point's declarations", () => {
    writeFileSync(
      join(root, "use.ts"),
      'import { evaluate, type Receipt } from "manifest-resolver/evaluate";\n' +
        'import { memoryCache, resolve } from "manifest-resolver/client";\n' +
        'import netlify from "manifest-resolver/netlify";\n' +
        'import cloudflare from "manifest-resolver/cloudflare";\n' +
        'import witness, { WitnessLog } from "manifest-resolver/cloudflare-witness";\n' +
        'export const outcome: Promise<Receipt["outcome"]> = evaluate("{}").then((r) => r.outcome);\n' +
        "export const reason: Promise<string | undefined> = " +
        'resolve("https://resolver.example", "urn:x", { cache: memoryCache() }).then((r) ' +
        '=> ("reason" in r ? r.reason : r.receipt.outcome));\n' +
        'export const edge: Promise<Response> = netlify(new Request("https://r.example/"), ' +
        "{ next: (request: Request) => fetch(request) });\n" +
        "export const worker: (request: Request) => Promise<Response> = (request) => cloudflare.fetch(request, {});\n" +
        "export const witnessWorker = (request: Request): Promise<Response> => witness.fetch(request, {});\n" +
        "export const witnessLog = new WitnessLog({ storage: { get: async () => undefined, put: async () => {} } });\n",
    );
    writeFileSync(
      join(root, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          lib: ["ES2024", "DOM"],
          types: [],
        },
        include: ["use.ts"],
      }),
    );
    run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", root], root);
  });
});

describe("a publisher's project, the package a devDependency", () => {
  let root: string;
  let umid: string;
  const cli = (...args: string[]) =>
    run(process.execPath, [join(root, "node_modules/.bin/manifest-resolver"), ...args], root);

  before(() => {
    root = project("publisher", { name: "publisher", private: true }, ["--save-dev"]);
  });

  it("init writes a repository that uses the installed package, then keygen, new, sign, check and build work", () => {
    const initialized = cli("init");
    assert.match(initialized, /^wrote netlify\/edge-functions\/resolver\.ts$/m);
    assert.match(initialized, /^ {2}npx manifest-resolver keygen$/m);
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.equal(manifest.devDependencies["manifest-resolver"] !== undefined, true);
    assert.equal(manifest.scripts.build, "manifest-resolver build");

    // No hand edit: keygen pins the key and makes its keyRef the project's, which sign then uses with the key.
    const key = join(scratch, "keys", "signing.pem");
    cli("keygen", "--file", key, "--key-ref", "did:web:publisher.example#key-1");
    cli("new", "--file", "content/first.jsonld");
    umid = JSON.parse(readFileSync(join(root, "content/first.jsonld"), "utf8"))["@id"];
    cli("sign", "content", "--key", key);
    assert.match(cli("check"), /Checked 1 manifest/);
    assert.match(cli("build"), /^built dist\/ from content\/: 1 manifest/m);
  });

  /** The manifest, as a host answers it: found, and accepted by the evaluator. */
  async function assertResolves(started: Started): Promise<void> {
    try {
      const response = await fetch(`${started.url}/${encodeURIComponent(umid)}`);
      assert.equal(response.status, 200);
      const receipt = await evaluate(new Uint8Array(await response.arrayBuffer()), {}, { offline: true });
      assert.deepEqual([receipt.outcome, receipt.manifestId], ["accepted", umid]);
    } finally {
      await started.stop();
    }
  }

  it("serve answers the manifest", async () => {
    await assertResolves(
      await startPrintingUrl(
        process.execPath,
        [join(root, "node_modules/.bin/manifest-resolver"), "serve", "--port", "0"],
        NPM_ENV,
        1,
        root,
      ),
    );
  });

  it("the Netlify edge function init wrote answers it, under Deno", async () => {
    await assertResolves(
      await startNetlifyFunction(join(root, "dist"), { root, functionFile: "netlify/edge-functions/resolver.ts" }),
    );
  });

  it("the Worker init wrote answers it, under workerd", async () => {
    await assertResolves(await startWorker(join(root, "dist"), root));
  });
});
