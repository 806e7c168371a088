/**
 * `manifest-resolver dev` (issue 39, part 6): it builds and serves, and at each change of content/ signs (--sign) and
 * builds again in place while the same servers answer; a broken file leaves the last good output served; an open
 * lookup page is told of each build.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { freePort } from "./support/http.ts";
import { CLI } from "./support/paths.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-dev-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A process of the CLI's, its output kept, with a way to wait for what it prints next. */
function started(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    get output() {
      return output;
    },
    /** Resolves once what it printed after `from` (an offset in its output) matches `pattern`. */
    async printed(pattern: RegExp, from = 0): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(output.slice(from))) {
        assert.ok(child.exitCode === null, `it exited:\n${output}`);
        assert.ok(Date.now() < deadline, `nothing matched ${pattern} in 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGINT");
      }),
  };
}

/** A project from init, with a signing key and `manifest` (a path in it) signed, and the ports its dev will use. */
async function signedProject(name: string, manifest: string) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), "{}\n");
  const env = { ...process.env, HOME: join(scratch, `${name}-home`), GITHUB_ACTIONS: "", UM_RESOLVER_URL: undefined };
  const run = async (...args: string[]) => {
    const result = await runCliInProcess(args, dir, env);
    assert.equal(result.status, 0, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
  };
  const [port, uiPort] = [await freePort(), await freePort()];
  await run("init", "--resolver-url", `http://127.0.0.1:${port}`);
  await run("keygen");
  mkdirSync(dirname(join(dir, manifest)), { recursive: true });
  await run("new", "--file", manifest);
  await run("sign", "content");
  return { dir, env, port, uiPort };
}

/**
 * `dev --sign` watching a project with `manifest` signed: the manifest's path, its signed text, the pins' text (to
 * make them again), the resolver's URL of its UMID.
 */
async function watching(name: string, manifest: string) {
  const { dir, env, port, uiPort } = await signedProject(name, manifest);
  const file = join(dir, manifest);
  const signed = readFileSync(file, "utf8");
  const keys = readFileSync(join(dir, "content/_keys.json"), "utf8");
  const resolver = `http://127.0.0.1:${port}/${encodeURIComponent(JSON.parse(signed)["@id"])}`;
  const dev = started(["dev", "--sign", "--port", String(port), "--ui-port", String(uiPort)], dir, env);
  try {
    await dev.printed(/^watching content\//m);
  } catch (error) {
    await dev.stop();
    throw error;
  }
  return { dir, file, signed, keys, resolver, dev };
}

describe("dev", () => {
  it("serves each edit signed and built in place, keeps the last good output for a broken file, and tells the page", async () => {
    const { dir, env, port, uiPort } = await signedProject("project", "content/one.jsonld");
    const file = join(dir, "content/one.jsonld");
    const umid: string = JSON.parse(readFileSync(file, "utf8"))["@id"];
    const resolver = `http://127.0.0.1:${port}/${encodeURIComponent(umid)}`;

    const dev = started(["dev", "--sign", "--port", String(port), "--ui-port", String(uiPort)], dir, env);
    try {
      await dev.printed(/^watching content\//m);
      // The lookup page's address is the first printed: the one people open.
      assert.equal(/http:\S+/.exec(dev.output)?.[0], `http://127.0.0.1:${uiPort}/`);
      const first = await fetch(resolver);
      assert.equal(first.status, 200);
      const firstBody = await first.text();

      // The page the lookup server gives loads the script that listens for builds.
      const page = await (await fetch(`http://127.0.0.1:${uiPort}/`)).text();
      assert.match(page, /<script type="module" src="\.\/_dev\/reload\.js">/);
      const script = await fetch(`http://127.0.0.1:${uiPort}/_dev/reload.js`);
      assert.equal(script.status, 200);
      const events = await fetch(`http://127.0.0.1:${uiPort}/_dev/reload`);
      assert.equal(events.headers.get("content-type"), "text/event-stream");
      const reader = events.body!.getReader();

      // An edit, saved without a signature's update: dev signs it, builds, and the resolver answers the new body.
      const edited = { ...JSON.parse(readFileSync(file, "utf8")), expiresAt: "2031-01-01T00:00:00Z" };
      let from = dev.output.length;
      writeFileSync(file, JSON.stringify(edited, null, 2));
      await dev.printed(/^\d\d:\d\d:\d\d built 1 manifest.*\(one\.jsonld\)$/m, from);
      const second = await fetch(resolver);
      assert.equal(second.status, 200);
      const secondBody = JSON.parse(await second.text());
      assert.equal(secondBody.expiresAt, "2031-01-01T00:00:00Z");
      assert.notDeepEqual(secondBody.signature, JSON.parse(firstBody).signature);
      // One build for one edit: the signature dev wrote is no edit of its own.
      assert.equal(dev.output.slice(from).match(/ built /g)?.length, 1, dev.output);
      let heard = "";
      while (!heard.includes("event: built")) heard += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      // The file on disk is checked as the build checked it.
      const checked = await runCliInProcess(["check"], dir, env);
      assert.equal(checked.status, 0, checked.stdout);

      // A broken file: its problem, by rule, and the last good body answered still.
      from = dev.output.length;
      writeFileSync(file, "{ broken");
      await dev.printed(/not built \(one\.jsonld\): still serving the last good output/, from);
      assert.match(dev.output.slice(from), /content\/one\.jsonld:1:3 - error json\/syntax/);
      const third = await fetch(resolver);
      assert.equal(third.status, 200);
      assert.equal(JSON.parse(await third.text()).expiresAt, "2031-01-01T00:00:00Z");
    } finally {
      assert.equal(await dev.stop(), 0, dev.output);
    }
  });

  it("watches a folder removed and made again, content/ itself too, as a branch switch or a restore does", async () => {
    const { dir, file, signed, keys, resolver, dev } = await watching("remade", "content/people/one.jsonld");
    try {
      /** Removes `folder` and makes it again as it was; then an edit in it is signed, built and served. */
      const remade = async (folder: string, expiresAt: string) => {
        let from = dev.output.length;
        rmSync(join(dir, folder), { recursive: true });
        await dev.printed(/not built/, from);
        from = dev.output.length;
        mkdirSync(join(dir, "content/people"), { recursive: true });
        writeFileSync(join(dir, "content/_keys.json"), keys);
        writeFileSync(file, signed);
        // content/ itself is watched anew once dev has seen it back, and says so: the build after that line.
        if (folder === "content") {
          await dev.printed(/^watching content\/ again$/m, from);
          from = dev.output.indexOf("watching content/ again", from);
        }
        await dev.printed(/^\d\d:\d\d:\d\d built 1 manifest/m, from);
        from = dev.output.length;
        writeFileSync(file, JSON.stringify({ ...JSON.parse(signed), expiresAt }, null, 2));
        await dev.printed(/^\d\d:\d\d:\d\d built 1 manifest.*\(people\/one\.jsonld\)$/m, from);
        return JSON.parse(await (await fetch(resolver)).text()).expiresAt;
      };
      assert.equal(await remade("content/people", "2031-01-01T00:00:00Z"), "2031-01-01T00:00:00Z");
      assert.equal(await remade("content", "2032-01-01T00:00:00Z"), "2032-01-01T00:00:00Z");
    } finally {
      assert.equal(await dev.stop(), 0, dev.output);
    }
  });

  it("watches content/ removed and made again at once, though ext4 gives the new folder the old one's inode", async () => {
    const { dir, file, signed, keys, resolver, dev } = await watching("at-once", "content/one.jsonld");
    try {
      let from = dev.output.length;
      // As `git checkout` of another branch and back, or a restore: no moment for a look to see the folder gone.
      rmSync(join(dir, "content"), { recursive: true });
      mkdirSync(join(dir, "content"));
      writeFileSync(join(dir, "content/_keys.json"), keys);
      writeFileSync(file, signed);
      await dev.printed(/^watching content\/ again$/m, from);
      from = dev.output.indexOf("watching content/ again", from);
      await dev.printed(/^\d\d:\d\d:\d\d built 1 manifest/m, from);
      from = dev.output.length;
      writeFileSync(file, JSON.stringify({ ...JSON.parse(signed), expiresAt: "2033-01-01T00:00:00Z" }, null, 2));
      await dev.printed(/^\d\d:\d\d:\d\d built 1 manifest.*\(one\.jsonld\)$/m, from);
      assert.equal(JSON.parse(await (await fetch(resolver)).text()).expiresAt, "2033-01-01T00:00:00Z");
    } finally {
      assert.equal(await dev.stop(), 0, dev.output);
    }
  });

  it("follows no symbolic link out of content/: signs nothing there, and the build reports the link", async () => {
    const { dir, env, port, uiPort } = await signedProject("linked", "content/one.jsonld");
    const outside = join(scratch, "linked-elsewhere");
    mkdirSync(outside);
    const theirs = join(outside, "theirs.jsonld");
    const dev = started(["dev", "--sign", "--port", String(port), "--ui-port", String(uiPort)], dir, env);
    try {
      await dev.printed(/^watching content\//m);
      let from = dev.output.length;
      symlinkSync(outside, join(dir, "content/elsewhere"));
      await dev.printed(/not built \(elsewhere\)/, from);
      assert.match(dev.output.slice(from), /content\/elsewhere - error content\/symlink/);
      // Another project's manifest, edited there: not this project's to sign with its key.
      const { signature: _, ...manifest } = JSON.parse(readFileSync(join(dir, "content/one.jsonld"), "utf8"));
      const unsigned = JSON.stringify(manifest, null, 2);
      writeFileSync(theirs, unsigned);
      from = dev.output.length;
      writeFileSync(join(dir, "content/README.md"), "edited\n");
      await dev.printed(/not built \(/, from);
      assert.equal(readFileSync(theirs, "utf8"), unsigned);
      assert.match(dev.output.slice(from), /not built \(README\.md\)/);
      // A link to it in content/ is the build's to refuse, not sign's to replace with a file.
      from = dev.output.length;
      symlinkSync(theirs, join(dir, "content/theirs.jsonld"));
      await dev.printed(/not built \(theirs\.jsonld\)/, from);
      assert.ok(lstatSync(join(dir, "content/theirs.jsonld")).isSymbolicLink());
      assert.equal(readFileSync(theirs, "utf8"), unsigned);
    } finally {
      assert.equal(await dev.stop(), 0, dev.output);
    }
  });
});
