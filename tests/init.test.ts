/**
 * `manifest-resolver init`: what it writes into an empty folder, that every file it writes
 * points at the installed package rather than a copy of its code, and that nothing a
 * publisher already has is overwritten without --force. (tests/package.test.ts runs the
 * folder it writes, from the packed package.)
 */
import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ROOT } from "./support/paths.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { withTmpfs } from "./support/tmpfs.ts";
import { wranglerConfig } from "./support/runtimes.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-init-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
function folder(files: Record<string, string> = {}): string {
  const root = join(scratch, `project-${++folders}`);
  mkdirSync(root);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

const read = (root: string, path: string) => readFileSync(join(root, path), "utf8");

describe("init in an empty folder", () => {
  const root = join(scratch, "new-folder");
  let stdout = "";

  it("makes the folder and writes the repository, then prints the next three commands", async () => {
    const run = await runCliInProcess(["init", root], scratch);
    assert.equal(run.status, 0, run.stderr);
    stdout = run.stdout;
    const commands = stdout.split("\n").filter((line) => line.startsWith("  npx manifest-resolver "));
    assert.deepEqual(
      commands.map((line) => line.split(" ")[4]),
      ["keygen", "new", "sign"],
    );
    assert.match(stdout, /^next, in new-folder, after npm install:/m);
  });

  it("writes content/ with a _keys.json that pins nothing yet, and says what goes there", () => {
    assert.deepEqual(JSON.parse(read(root, "content/_keys.json")), {});
    assert.match(read(root, "content/README.md"), /_keys\.json/);
  });

  it("writes the project's settings: its keys folder, outside the repository, and no resolver yet", () => {
    assert.deepEqual(JSON.parse(read(root, "manifest-resolver.json")), { keysDir: "~/.manifest-keys/new-folder" });
  });

  it("leaves keygen to pin the key in that _keys.json, and to make its keyRef the project's", async () => {
    const made = await runCliInProcess(
      ["keygen", "--file", join(scratch, "key.pem"), "--key-ref", "did:web:x.example#k"],
      root,
    );
    assert.equal(made.status, 0, made.stderr);
    assert.deepEqual(Object.keys(JSON.parse(read(root, "content/_keys.json"))), ["did:web:x.example#k"]);
    assert.equal(JSON.parse(read(root, "manifest-resolver.json")).signingKeyRef, "did:web:x.example#k");
  });

  it("points Netlify at an edge function that re-exports the package's", () => {
    const toml = read(root, "netlify.toml").replace(/#.*$/gm, "");
    assert.match(toml, /\[\[edge_functions\]\]\s*path = "\/\*"\s*function = "resolver"/);
    assert.match(toml, /^\s*publish = "dist"$/m);
    assert.match(toml, /^\s*command = "npm run build"$/m);
    // Netlify installs devDependencies unless told not to; the package is one.
    assert.doesNotMatch(toml, /omit=dev/);
    assert.match(
      read(root, "netlify/edge-functions/resolver.ts"),
      /^export \{ default \} from "manifest-resolver\/netlify";$/m,
    );
  });

  it("points Wrangler at a Worker that re-exports the package's", () => {
    const config = wranglerConfig(root);
    assert.equal(config.name, "new-folder");
    assert.equal(config.assets.run_worker_first, true);
    assert.match(read(root, config.main), /^export \{ default \} from "manifest-resolver\/cloudflare";$/m);
  });

  it("writes this repository's own workflows for pull requests and main", () => {
    for (const name of ["manifests-pull-request.yml", "manifests-main.yml"])
      assert.equal(read(root, `.github/workflows/${name}`), read(ROOT, `.github/workflows/${name}`));
  });

  it("writes package.json with the scripts and the package as a devDependency, and a .gitignore", () => {
    const manifest = JSON.parse(read(root, "package.json"));
    assert.deepEqual(manifest.scripts, {
      check: "manifest-resolver check",
      build: "manifest-resolver build",
      start: "manifest-resolver build && manifest-resolver serve --ui-port 8788",
      dev: "manifest-resolver dev --sign",
    });
    const { version } = JSON.parse(read(ROOT, "package.json"));
    assert.deepEqual(manifest.devDependencies, { "manifest-resolver": `^${version}` });
    const ignored = read(root, ".gitignore").split("\n");
    for (const entry of ["dist/", "*.pem", "node_modules/"]) assert.ok(ignored.includes(entry), entry);
  });

  it("copies no code out of the package: every file it writes is settings, or one line naming the package", () => {
    const written = stdout.match(/^wrote (.+)$/gm)!.map((line) => line.slice("wrote new-folder/".length));
    for (const path of written.filter((p) => p.endsWith(".ts")))
      assert.deepEqual(
        read(root, path)
          .split("\n")
          .filter((line) => line !== "" && !line.startsWith("//")),
        [`export { default } from "manifest-resolver/${path.startsWith("netlify") ? "netlify" : "cloudflare"}";`],
      );
  });
});

describe("init where files exist", () => {
  it("lists each file in the way, and writes nothing", async () => {
    const root = folder({ "netlify.toml": "# mine\n", ".gitignore": "mine\n" });
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1);
    assert.deepEqual(
      run.stderr.split("\n").filter((line) => line.endsWith(" exists")),
      ["manifest-resolver: netlify.toml exists", "manifest-resolver: .gitignore exists"],
    );
    assert.match(run.stderr, /--force/);
    assert.deepEqual(readdirSync(root).sort(), [".gitignore", "netlify.toml"]);
    assert.equal(read(root, "netlify.toml"), "# mine\n");
  });

  it("keeps a package.json's own fields and layout, adding the scripts and the devDependency", async () => {
    const root = folder({
      "package.json": '{\n\t"name": "@acme/manifests",\n\t"version": "2.0.0",\n\t"scripts": { "test": "echo ok" }\n}\n',
    });
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 0, run.stderr);
    const text = read(root, "package.json");
    assert.match(text, /^\t"name": "@acme\/manifests",$/m, "tabs, as it was written");
    const manifest = JSON.parse(text);
    assert.equal(manifest.version, "2.0.0");
    assert.deepEqual(Object.keys(manifest.scripts), ["test", "check", "build", "start", "dev"]);
    assert.ok(manifest.devDependencies["manifest-resolver"]);
    assert.equal(manifest.private, undefined, "not made private: it was not init's to decide");
    assert.equal(wranglerConfig(root).name, "manifests");
  });

  it("refuses a package.json whose scripts of the same names are the publisher's own", async () => {
    const original = '{ "scripts": { "build": "make" }, "devDependencies": { "manifest-resolver": "^0.1.0" } }\n';
    const root = folder({ "package.json": original });
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^manifest-resolver: package\.json has a "build" script of its own$/m);
    assert.equal(read(root, "package.json"), original);
    assert.equal(existsSync(join(root, "content")), false);
  });

  it("refuses a package.json that is not JSON, naming its line and column", async () => {
    const root = folder({ "package.json": '{\n  "name": "x",\n}\n' });
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^manifest-resolver: package\.json:2:14 - trailing comma/m);
    assert.equal(existsSync(join(root, "content")), false);
  });

  it("overwrites with --force", async () => {
    const root = folder({ "netlify.toml": "# mine\n", "package.json": '{ "scripts": { "build": "make" } }\n' });
    const run = await runCliInProcess(["init", "--force"], root);
    assert.equal(run.status, 0, run.stderr);
    assert.match(read(root, "netlify.toml"), /function = "resolver"/);
    assert.equal(JSON.parse(read(root, "package.json")).scripts.build, "manifest-resolver build");
  });

  it("is a no-op to run again with nothing changed", async () => {
    const root = folder();
    assert.equal((await runCliInProcess(["init"], root)).status, 0);
    const again = await runCliInProcess(["init"], root);
    assert.equal(again.status, 1, "every file it would write exists");
    assert.doesNotMatch(again.stderr, /script of its own/);
  });
});

describe("init refuses what would crash it or send its files elsewhere, and writes nothing", () => {
  it("a package.json nested deeper than its limit: the place and the limit, exit 1", async () => {
    const root = folder({ "package.json": `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}` });
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr,
      /^manifest-resolver: package\.json:1:\d+ - containers nested more than \d+ deep; nothing was written$/m,
    );
    assert.deepEqual(readdirSync(root), ["package.json"]);
  });

  it("a package.json larger than package.json's own limit, naming it and not a manifest's setting", async () => {
    const root = folder({ "package.json": "{}" });
    truncateSync(join(root, "package.json"), 300 * 1024 * 1024);
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /package\.json .*314572800 bytes.*package\.json/);
    assert.doesNotMatch(run.stderr, /UM_MAX_MANIFEST_BYTES/);
    assert.deepEqual(readdirSync(root), ["package.json"]);
  });

  for (const linked of [".github", "netlify", "cloudflare", "content", ".github/workflows"]) {
    it(`a folder it writes into that is a symbolic link (${linked}), even with --force`, async () => {
      const root = folder();
      const elsewhere = mkdtempSync(join(scratch, "elsewhere-"));
      mkdirSync(join(root, linked, ".."), { recursive: true });
      symlinkSync(elsewhere, join(root, linked));
      for (const args of [["init"], ["init", "--force"]]) {
        const run = await runCliInProcess(args, root);
        assert.equal(run.status, 1, run.stderr);
        assert.match(
          run.stderr,
          new RegExp(`^manifest-resolver: ${linked.replace(".", "\\.")} is a symbolic link`, "m"),
        );
        assert.match(run.stderr, /nothing was written/);
        assert.deepEqual(readdirSync(elsewhere), [], "nothing written where the link points");
        assert.deepEqual(readdirSync(root), [linked.split("/")[0]], "nor in the project");
      }
    });
  }

  it("a folder where it writes a file, or a file where it needs a folder, even with --force", async () => {
    for (const [made, named] of [
      [(root: string) => mkdirSync(join(root, "netlify.toml")), "netlify.toml is a folder"],
      [(root: string) => writeFileSync(join(root, "content"), "mine\n"), "content is a file, not a folder"],
    ] as const) {
      const root = folder();
      made(root);
      const before = readdirSync(root);
      const run = await runCliInProcess(["init", "--force"], root);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`^manifest-resolver: ${named.replace(".", "\\.")}: `, "m"));
      assert.match(run.stderr, /nothing was written/);
      assert.deepEqual(readdirSync(root), before, "not half a project");
    }
  });

  it("a disk that fills half-way: what it wrote is taken back, and the failure said in one line", async (t) => {
    await withTmpfs(t, scratch, "24k", async (disk) => {
      const run = await runCliInProcess(["init", disk.dir], scratch);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /^manifest-resolver: cannot write .*ENOSPC.*; nothing was written$/m);
      assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
      assert.doesNotMatch(run.stdout, /^wrote /m);
      assert.deepEqual(readdirSync(disk.dir), [], "not half a project");
    });
  });

  it("a dangling symbolic link named like a file it writes is in the way, and kept", async () => {
    const root = folder();
    symlinkSync(join(scratch, "nowhere"), join(root, "netlify.toml"));
    const run = await runCliInProcess(["init"], root);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^manifest-resolver: netlify\.toml exists/m);
    assert.deepEqual(readdirSync(root), ["netlify.toml"]);
    assert.ok(lstatSync(join(root, "netlify.toml")).isSymbolicLink());
    assert.equal(readlinkSync(join(root, "netlify.toml")), join(scratch, "nowhere"));
  });

  // Found in review: package.json was read through its link, a dangling one taken for none, and the link replaced.
  for (const target of ["nowhere", "elsewhere.json"])
    it(`package.json that is a symbolic link (to ${target}) is in the way, even with --force, and kept`, async () => {
      const root = folder();
      writeFileSync(join(scratch, "elsewhere.json"), JSON.stringify({ name: "elsewhere" }));
      symlinkSync(join(scratch, target), join(root, "package.json"));
      for (const args of [["init"], ["init", "--force"]]) {
        const run = await runCliInProcess(args, root);
        assert.equal(run.status, 1, run.stderr);
        assert.match(run.stderr, /^manifest-resolver: package\.json is a symbolic link/m);
        assert.deepEqual(readdirSync(root), ["package.json"]);
        assert.equal(readlinkSync(join(root, "package.json")), join(scratch, target));
      }
      assert.deepEqual(JSON.parse(readFileSync(join(scratch, "elsewhere.json"), "utf8")), { name: "elsewhere" });
    });
});
