/** `manifest-resolver build` and the CLI around it, run as a publisher runs them. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { encodeBase64url, utf8 } from "../core/base64url.ts";
import { shardPath } from "../edge/records.ts";
import { shardOf } from "../edge/shard-file.ts";
import { recoverOutput } from "../scripts/write/output.ts";
import { canonicalize } from "../core/crypto/jcs.ts";
import { caseTwins, manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { readRecords } from "./support/index.ts";
import { fileDigests, writeFiles } from "./support/file-tree.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { CLI } from "./support/paths.ts";
import { assertLineNames, assertUsageError, printedProblems, problemPlaces, theProblem } from "./support/problems.ts";
import { type Finished, startPrintingUrl } from "./support/processes.ts";

const key = newKey();
const scratch = mkdtempSync(join(tmpdir(), "um-build-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], cwd = scratch, env: Record<string, string | undefined> = {}) {
  return runCliInProcess(args, cwd, { UM_RESOLVER_URL: "", ...env });
}

/** A new content directory of `files`, in the scratch folder. */
function content(name: string, files: Record<string, unknown>): string {
  return writeFiles(join(scratch, name), files);
}

const [twinA, twinB] = caseTwins();
const longUmid = `urn:long:${"x".repeat(300)}`;
const good = {
  "a.json": signed(manifestFor("urn:uuid:a"), key),
  "deep/b.jsonld": signed(manifestFor("a/b ü"), key),
  "twins/1.json": signed(manifestFor(twinA), key),
  "twins/2.json": signed(manifestFor(twinB), key),
  "long.json": signed(manifestFor(longUmid), key),
  "withheld.json": signed(manifestFor("urn:revoked:with-file"), key),
  "_draft.json": "{ not even json",
  "notes.txt": "not content",
  "_routes.json": {
    redirects: [{ umid: "urn:moved", location: "https://elsewhere.example/m/1" }],
    revoked: [{ umid: "urn:revoked:with-file", reason: "superseded" }, { umid: "urn:revoked:gone" }],
  },
};

describe("build: valid content", () => {
  const dir = content("good", good);
  const out = join(scratch, "good-dist");
  let first: Finished;
  let records: ReturnType<typeof readRecords>;
  before(async () => {
    first = await cli(["build", "--content", dir, "--out", out]);
    records = readRecords(out);
  });

  it("succeeds with a one-line summary, in human units, after the warnings", async () => {
    assert.equal(first.status, 0, first.stderr);
    assert.match(
      first.stdout,
      /\nbuilt .*good-dist\/ from .*good\/: 5 manifests, 1 redirect, 2 revoked, 0 suspended \(\d+\.\d KiB\) in (\d+ ms|\d+\.\d s); lookup page in dist-lookup\/\n$/,
    );
  });
  it("warns, on stderr, that a lookup page built without UM_RESOLVER_URL asks its reader for a resolver", async () => {
    assertLineNames(first.stderr, "manifest-resolver: warning: ", "UM_RESOLVER_URL", "dist-lookup/");
    const named = await cli(["build", "--content", dir, "--out", out], scratch, {
      UM_RESOLVER_URL: "https://resolver.example",
    });
    assert.equal(named.status, 0, named.stderr);
    assert.doesNotMatch(named.stderr, /UM_RESOLVER_URL/);
  });
  it("writes folders a web server can read, and the lookup page beside them", async () => {
    assert.equal(statSync(out).mode & 0o777, 0o755);
    // Beside lookup.js, the chunks it loads, and the modules bundled apart that it loads only where needed.
    const page = Object.keys(fileDigests(join(scratch, "dist-lookup")));
    assert.ok(page.includes("pure-crypto.js") && page.includes("legacy-v03.js"), page.join(", "));
    assert.deepEqual(
      page.filter((name) => !name.endsWith(".js") || name === "lookup.js"),
      ["index.html", "lookup.js"],
    );
  });
  it("warns that a revoked manifest is not published, at its @id", async () => {
    const withheld = theProblem(first.stdout, "routes/withheld");
    assert.deepEqual(
      [withheld.severity, withheld.file, withheld.line, withheld.column],
      ["warning", relative(scratch, join(dir, "withheld.json")), 3, 10],
    );
    assert.ok(withheld.message.includes('"urn:revoked:with-file"'), withheld.message);
    assert.equal(records["urn:revoked:with-file"]!.revoked, true);
  });
  it("names a body by the base64url of its UMID", async () => {
    // In the folder named like its index shard.
    for (const umid of ["urn:uuid:a", "a/b ü"]) {
      assert.equal(records[umid]!.file, `m/${shardOf(umid)}/${encodeBase64url(utf8(umid))}`);
    }
  });
  it("names by digest the UMIDs whose base64url names differ only in case, and long ones", async () => {
    const digest = (umid: string) => {
      const hex = createHash("sha256").update(umid).digest("hex");
      return `h/${hex.slice(0, 3)}/${hex}`;
    };
    assert.equal(encodeBase64url(utf8(twinA)).toLowerCase(), encodeBase64url(utf8(twinB)).toLowerCase());
    assert.equal(records[twinA]!.file, digest(twinA));
    assert.equal(records[twinB]!.file, digest(twinB));
    assert.equal(records[longUmid]!.file, digest(longUmid));
    const names = Object.keys(fileDigests(out)).map((n) => n.toLowerCase());
    assert.equal(new Set(names).size, names.length, "no two files differ only in case");
  });
  it("writes the canonical form as the body, with the ETag of exactly those bytes", async () => {
    for (const [file, manifest] of Object.entries(good)) {
      if (file.startsWith("_") || typeof manifest === "string" || file === "withheld.json") continue;
      const umid = (manifest as { "@id": string })["@id"];
      const body = readFileSync(join(out, records[umid]!.file!));
      assert.equal(body.toString(), canonicalize(manifest));
      assert.equal(records[umid]!.etag, `W/"sha256-${createHash("sha256").update(body).digest("base64url")}"`);
    }
  });
  it("records redirects and revocations", async () => {
    assert.deepEqual(records["urn:moved"], { redirect: "https://elsewhere.example/m/1" });
    assert.equal(records["urn:revoked:gone"]!.revoked, true);
    assert.equal(records["urn:revoked:gone"]!.status!.status, "revoked");
    assert.equal(Object.keys(records).length, 8);
  });
  it("writes the index, the build info and the five bodies: underscore and other files are not content", async () => {
    const files = Object.keys(fileDigests(out));
    assert.equal(
      files.filter((f) => /^index\/[0-9a-f]{3}\.json$/.test(f)).length,
      new Set(Object.keys(records).map(shardPath)).size,
    );
    assert.equal(files.filter((f) => /^[mh]\//.test(f)).length, 5);
    assert.ok(
      files.every((f) => /^(index\/[0-9a-f]{3}\.json|[mh]\/[0-9a-f]{3}\/[\w-]+|resolver\.json)$/.test(f)),
      files.join(" "),
    );
    const { state, ...info } = JSON.parse(readFileSync(join(out, "resolver.json"), "utf8"));
    assert.deepEqual(info, { format: 3, manifests: 5, redirects: 1, revoked: 2 });
    // The digest of the output's state, which the build keeps in its cache's store.
    assert.match(state, /^[0-9a-f]{64}$/);
  });
  it("gives byte-identical output for identical input", async () => {
    const again = join(scratch, "good-dist-again");
    assert.equal((await cli(["build", "--content", dir, "--out", again])).status, 0);
    assert.deepEqual(fileDigests(again), fileDigests(out));
  });
  it("keeps the ETag when only the formatting of a file changes", async () => {
    const reformatted = content("good-reformatted", { ...good, "a.json": JSON.stringify(good["a.json"]) });
    const out2 = join(scratch, "good-reformatted-dist");
    assert.equal((await cli(["build", "--content", reformatted, "--out", out2])).status, 0);
    assert.deepEqual(fileDigests(out2), fileDigests(out));
  });
});

describe("build: invalid content", () => {
  const valid = signed(manifestFor("urn:uuid:valid"), key);
  const tampered = { ...signed(manifestFor("urn:uuid:tampered"), key), subject: "did:web:mallory.example" };
  const { expiresAt: _, ...unexpiring } = manifestFor("urn:uuid:no-expiry");
  const noExpiry = signed(unexpiring, key);
  const dir = content("bad", {
    "ok.json": valid,
    "copy.json": valid,
    "no-expiry.json": noExpiry,
    "tampered.json": tampered,
    "syntax.json": '{\n  "@id": "urn:x",\n  "subject": "a",,\n}\n',
    "dup-key.json": '{\n  "@id": "urn:y",\n  "@id": "urn:z"\n}\n',
    "_routes.json": {
      redirects: [
        { umid: "urn:uuid:valid", location: "https://elsewhere.example/" },
        { umid: "urn:both", location: "https://elsewhere.example/both" },
        { umid: "urn:ftp", location: "ftp://files.example/m" },
      ],
      revoked: [{ umid: "urn:both" }, { umid: "urn:twice" }, { umid: "urn:twice" }],
    },
  });
  const out = join(scratch, "bad-dist");
  const seed = content("seed", { "a.json": valid });
  let seeded: Finished;
  let seededOutput: Record<string, string>;
  let result: Finished;
  let lines: string[];
  before(async () => {
    seeded = await cli(["build", "--content", seed, "--out", out]);
    seededOutput = fileDigests(out);
    result = await cli(["build", "--content", dir, "--out", out]);
    lines = result.stdout.trim().split("\n");
  });
  const at = (file: string) => relative(scratch, join(dir, file));

  it("fails with status 1 and a summary", async () => {
    assert.equal(seeded.status, 0, seeded.stderr);
    assert.equal(result.status, 1);
    assert.equal(result.stderr.replace(/^manifest-resolver: warning: UM_RESOLVER_URL .*\n/m, ""), "");
    assert.match(
      lines.at(-2)!,
      /^Errors by rule: routes\/conflict ×2, json\/duplicate-key ×1, json\/syntax ×1, routes\/duplicate ×1, schema\/redirect-location ×1, schema\/required ×1, signature\/invalid ×1, umid\/duplicate ×1; warnings by rule: routes\/undated ×2, keys\/none-pinned ×1\.$/,
    );
    assert.match(lines.at(-1)!, /^Found 9 errors in 6 files\. .*bad-dist was left unchanged\.$/);
  });
  it("leaves the previous output as it was, and no staging directory behind", async () => {
    assert.deepEqual(fileDigests(out), seededOutput);
    assert.deepEqual(
      readdirSync(scratch).filter((n) => n.includes("building")),
      [],
    );
  });
  /**
   * Each problem by its rule and its place, one of `places` (files of `dir`, with line and
   * column); its message names the others (the other file of a duplicate, the entry it
   * conflicts with) and each of `named` (a UMID, a member, the JSON pointer).
   */
  const expected: [what: string, rule: string, places: string[], named: string[]][] = [
    ["schema", "schema/required", ["no-expiry.json:1:1"], ['"expiresAt"']],
    ["signature", "signature/invalid", ["tampered.json:15:14"], ["/signature/value"]],
    ["syntax", "json/syntax", ["syntax.json:3:18"], []],
    ["duplicate key", "json/duplicate-key", ["dup-key.json:3:3"], ['"@id"', "2:3"]],
    ["duplicate UMID, naming both files", "umid/duplicate", ["ok.json:3:10", "copy.json:3:10"], ['"urn:uuid:valid"']],
    [
      "redirect of a published UMID, naming the manifest",
      "routes/conflict",
      ["_routes.json:4:15", "copy.json:3:10"],
      ['"urn:uuid:valid"', "/redirects/0/umid"],
    ],
    [
      "revoked and redirected, naming both entries",
      "routes/conflict",
      ["_routes.json:8:15", "_routes.json:18:15"],
      ['"urn:both"', "/redirects/1/umid"],
    ],
    [
      "revoked twice",
      "routes/duplicate",
      ["_routes.json:24:15", "_routes.json:21:15"],
      ['"urn:twice"', "/revoked/2/umid"],
    ],
    ["a location that is not http(s)", "schema/redirect-location", ["_routes.json:13:19"], ["/redirects/2/location"]],
  ];
  for (const [what, rule, places, named] of expected) {
    it(`reports ${what} as file:line:col - error RULE`, async () => {
      const wanted = places.map(at);
      const placeOf = (p: { file: string; line?: number; column?: number }) => `${p.file}:${p.line}:${p.column}`;
      const problem = printedProblems(result.stdout).find(
        (p) => p.severity === "error" && p.rule === rule && wanted.includes(placeOf(p)),
      );
      assert.ok(problem, `no ${rule} at ${wanted.join(" or ")} in:\n${result.stdout}`);
      for (const value of [...wanted.filter((place) => place !== placeOf(problem)), ...named])
        assert.ok(problem.message.includes(value), `${value} in ${problem.message}`);
    });
  }
});

describe("build: the output directory", () => {
  it("refuses to replace a directory that is not a previous build", async () => {
    const dir = content("precious", { "thesis.json": { chapter: 1 } });
    const result = await cli([
      "build",
      "--content",
      content("one", { "a.json": signed(manifestFor("urn:one"), key) }),
      "--out",
      dir,
    ]);
    assert.equal(result.status, 1);
    assertLineNames(result.stderr, "manifest-resolver: ", dir, "resolver.json");
    assert.deepEqual(Object.keys(fileDigests(dir)), ["thesis.json"]);
  });
  it("refuses to replace a deployed resolver with an empty one; --allow-empty builds it", async () => {
    const out = join(scratch, "empty-dist");
    assert.equal(
      (
        await cli([
          "build",
          "--content",
          content("before-empty", { "a.json": signed(manifestFor("urn:kept"), key) }),
          "--out",
          out,
        ])
      ).status,
      0,
    );
    const before = fileDigests(out);
    mkdirSync(join(scratch, "empty"));
    const refused = await cli(["build", "--content", join(scratch, "empty"), "--out", out]);
    assert.equal(refused.status, 1);
    assert.deepEqual(problemPlaces(refused.stdout), []);
    // It names the folder it left as it was, and the flag that builds it anyway.
    assertLineNames(refused.stdout, "empty-dist", "--allow-empty");
    assert.deepEqual(fileDigests(out), before);
    assert.equal((await cli(["build", "--content", join(scratch, "empty"), "--out", out, "--allow-empty"])).status, 0);
    assert.deepEqual(readRecords(out), {});
    assert.deepEqual(Object.keys(fileDigests(out)), ["resolver.json"]);
  });
});

describe("CLI", () => {
  it("prints help with an example, exit 0, for every command", async () => {
    for (const command of [
      "keygen",
      "new",
      "sign",
      "check",
      "explain",
      "revoke",
      "suspend",
      "reinstate",
      "redirect",
      "build",
      "serve",
      "probe",
      "monitor",
      "evaluate",
      "resolve",
    ]) {
      const result = await cli([command, "--help"]);
      assert.equal(result.status, 0);
      assert.match(
        result.stdout,
        new RegExp(
          `^Usage: manifest-resolver ${command} [\\s\\S]*Exit status: 0 ` +
            `[\\s\\S]*Examples?:\\n  manifest-resolver ${command} `,
        ),
      );
    }
  });
  it("exits 2 on usage errors, saying what is wrong", async () => {
    const overview = await cli([]);
    assert.equal(overview.status, 2);
    assert.ok(overview.stdout.startsWith("Usage: manifest-resolver COMMAND"), overview.stdout);
    // Each names what was typed, and what was meant where that is near.
    const cases: [string[], string[]][] = [
      [["deploy"], ["'deploy'"]],
      [
        ["build", "--contents", "x"],
        ["'--contents'", "'--content'"],
      ],
      [["build", "extra"], ["'extra'"]],
      [
        ["serve", "--port", "http"],
        ["--port", "65535", "'http'"],
      ],
    ];
    for (const [args, named] of cases) assertUsageError(await cli(args), ...named);
  });
  it("serve without a build says what to run, exit 1", async () => {
    const result = await cli(["serve", "--dist", join(scratch, "nowhere")]);
    assert.equal(result.status, 1);
    assertLineNames(result.stderr, "manifest-resolver: ", "nowhere/resolver.json", "'manifest-resolver build'");
  });
  it("build of a missing content directory fails, exit 1", async () => {
    const result = await cli(["build", "--content", join(scratch, "no-such-content"), "--out", join(scratch, "x")]);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /no-such-content/);
  });
});

describe("build: killed at any instant", () => {
  const source = content(
    "killed",
    Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`m${i}.json`, signed(manifestFor(`urn:killed:${i}`), key)]),
    ),
  );
  const fresh = async () => {
    const out = mkdtempSync(join(scratch, "killed-out-"));
    rmSync(out, { recursive: true });
    assert.equal((await cli(["build", "--content", source, "--out", out, "--lookup-out", `${out}-lookup`])).status, 0);
    return out;
  };
  const aside = (out: string, kind: "next" | "previous" | "building-x") => join(out, "..", `.${basename(out)}.${kind}`);
  const complete = (out: string) =>
    existsSync(join(out, "resolver.json")) && Object.keys(readRecords(out)).length === 40;

  it("serve puts back an output a build left aside between its renames, and answers from it", async () => {
    const out = await fresh();
    renameSync(out, aside(out, "next"));
    const old = await fresh();
    renameSync(old, aside(out, "previous"));
    assert.equal(existsSync(out), false, "the state a kill between the two renames leaves");
    const server = await startPrintingUrl(process.execPath, [CLI, "serve", "--dist", out, "--port", "0"]);
    try {
      assert.equal((await fetch(`${server.url}/urn:killed:7`)).status, 200);
    } finally {
      await server.stop();
    }
    assert.ok(complete(out));
  });

  it("the next build restores or clears every leftover before it builds", async () => {
    for (const state of [["next"], ["previous"], ["next", "previous"]] as const) {
      const out = await fresh();
      for (const kind of state) cpSync(out, aside(out, kind), { recursive: true });
      rmSync(out, { recursive: true });
      mkdirSync(aside(out, "building-x"));
      const result = await cli(["build", "--content", source, "--out", out, "--lookup-out", `${out}-lookup`]);
      assert.equal(result.status, 0, result.stderr);
      // It names what it put back the output from.
      assertLineNames(result.stderr, `.${basename(out)}.${state[0]}`);
      assert.ok(complete(out));
      assert.deepEqual(
        readdirSync(join(out, "..")).filter((name) => name.startsWith(`.${basename(out)}.`)),
        [],
        `leftovers of ${state.join("+")}`,
      );
    }
  });

  it("SIGKILL at random moments never leaves the output unrecoverable", { timeout: 120_000 }, async () => {
    const out = await fresh();
    for (let i = 0; i < 20; i++) {
      const child = spawn(
        process.execPath,
        [CLI, "build", "--content", source, "--out", out, "--lookup-out", `${out}-lookup`],
        { stdio: "ignore" },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await sleep(100 + Math.random() * 900);
      child.kill("SIGKILL");
      await exited;
      for (const dir of [out, `${out}-lookup`]) await recoverOutput(dir);
      assert.ok(complete(out), `after kill ${i}: ${readdirSync(join(out, "..")).join(", ")}`);
    }
  });
});

describe("build: a folder without content", () => {
  it("leaves nothing behind, and names the folder it looked in with the ways to give it one", async () => {
    const empty = mkdtempSync(join(scratch, "no-content-"));
    for (const command of ["build", "check"]) {
      const result = await cli([command], empty, { UM_CACHE_DIR: undefined });
      assert.equal(result.status, 1, result.stderr);
      assert.deepEqual(
        readdirSync(empty),
        [],
        `${command}: no node_modules/.cache, no dist: npm must not take it for a package`,
      );
      const [problem] = printedProblems(result.stdout);
      assert.equal(problem?.rule, "file/unreadable");
      assertLineNames(problem!.message, join(empty, "content"), "manifest-resolver init", "--content");
    }
  });

  it("outside a package, a build that fails over content makes no node_modules/ there either", async () => {
    const folder = mkdtempSync(join(scratch, "no-package-"));
    mkdirSync(join(folder, "content"));
    writeFileSync(join(folder, "content", "bad.json"), "{");
    for (const command of ["build", "check"]) {
      const result = await cli([command], folder, { UM_CACHE_DIR: undefined });
      assert.equal(result.status, 1, result.stderr);
      assert.deepEqual(readdirSync(folder), ["content"], `${command}: npm must not take the folder for a package`);
    }
  });
});
