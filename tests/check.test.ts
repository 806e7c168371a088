/** `manifest-resolver check`: outputs, clock, strictness, pinned keys, limits, legacy payloads. */
import assert from "node:assert/strict";
import { createHash, createPublicKey } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { canonicalize } from "../core/crypto/jcs.ts";
import { signProfileA } from "../scripts/crypto/profile-a.ts";
import { FIXTURE_KEY_REF, manifestFor, newKey, signed } from "./support/fixture-content.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { assertUsageError, checkedFiles, problemPlaces, theProblem } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-check-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  return runCliInProcess(args, scratch, env);
}

function write(path: string, value: unknown): string {
  const full = join(scratch, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
  return full;
}

const key = newKey();
const otherKey = newKey();
const spki = (k: typeof key) => createPublicKey(k).export({ format: "der", type: "spki" }).toString("base64");
const PINNED = "did:web:pinned.example#key-1";
/** Signed with `signer` under the pinned keyRef, embedding `embed`'s key or none. */
function pinnedManifest(umid: string, signer: typeof key, embed: typeof key | null) {
  const manifest = manifestFor(umid);
  const signature: Record<string, string> = signProfileA(manifest, signer, PINNED);
  if (embed === null) delete signature.publicKeySpkiB64;
  else signature.publicKeySpkiB64 = spki(embed);
  return { ...manifest, signature };
}
const legacy = (version: string, extra: Record<string, unknown> = {}) => {
  const m = {
    ...manifestFor(`urn:legacy:${version}`),
    "@context": `https://universalmanifest.net/ns/v${version}`,
    manifestVersion: version,
    ...extra,
  };
  return m;
};

describe("check: a content directory", () => {
  const dir = "site/content";
  write(`${dir}/current.json`, signed(manifestFor("urn:current", { expiresAt: "2030-01-01T00:00:00Z" }), key));
  write(`${dir}/expiring.json`, signed(manifestFor("urn:expiring", { expiresAt: "2027-01-01T00:00:00Z" }), key));
  write(`${dir}/pinned/embedded.json`, pinnedManifest("urn:pinned:embedded", key, key));
  write(`${dir}/pinned/stand-in.json`, pinnedManifest("urn:pinned:stand-in", key, null));
  write(`${dir}/pinned/substituted.json`, pinnedManifest("urn:pinned:substituted", otherKey, otherKey));
  write(`${dir}/legacy/v03.json`, signed(legacy("0.3"), key));
  const v01 = legacy("0.1", { signature: { algorithm: "RSA", value: "x" }, subject: 5 });
  write(`${dir}/legacy/v01-unsigned.json`, v01);
  const V01_DIGEST = `sha256-${createHash("sha256").update(canonicalize(v01)).digest("base64url")}`;
  write(`${dir}/legacy/v02-tampered.json`, { ...signed(legacy("0.2"), key), subject: "did:web:mallory.example" });
  write(`${dir}/legacy/v03-no-id.json`, { ...legacy("0.3"), "@id": "" });
  write(`${dir}/_keys.json`, { [PINNED]: spki(key), [FIXTURE_KEY_REF]: spki(key) });
  const now = "2026-11-21T00:00:00Z";

  it("reports each problem at its line and column, and a summary; exit 1", async () => {
    const result = await cli(["check", "--offline", dir, "--now", now]);
    assert.equal(result.status, 1);
    const lines = result.stdout.trim().split("\n");
    assert.deepEqual(problemPlaces(result.stdout), [
      [`${dir}/legacy/v01-unsigned.json`, "legacy/unsigned", 5, 22],
      [`${dir}/legacy/v01-unsigned.json`, "schema/type", 6, 14],
      [`${dir}/legacy/v02-tampered.json`, "signature/invalid", 15, 14],
      [`${dir}/legacy/v03-no-id.json`, "schema/required", 1, 1],
      [`${dir}/legacy/v03-no-id.json`, "schema/minLength", 3, 10],
      [`${dir}/pinned/substituted.json`, "signature/key-mismatch", 14, 25],
    ]);
    assert.deepEqual(problemPlaces(result.stdout, "warning"), []);
    // What each message names: the entry that would opt the payload in, the member missing, the pin.
    assert.ok(
      theProblem(result.stdout, "legacy/unsigned").message.includes(
        `"legacy/v01-unsigned.json": "${V01_DIGEST}" to ${dir}/_unsigned.json`,
      ),
    );
    assert.ok(theProblem(result.stdout, "schema/required").message.includes('"signature"'));
    assert.ok(theProblem(result.stdout, "signature/key-mismatch").message.includes(`${dir}/_keys.json:2:35`));
    // The hint under the problem it fixes: the command to run, whole.
    const tampered = lines.findIndex((line) => line.startsWith(`${dir}/legacy/v02-tampered.json:15:14 `));
    assert.ok(
      lines[tampered + 1]!.endsWith(
        `manifest-resolver sign ${dir}/legacy/v02-tampered.json --key <your key> --key-ref ${FIXTURE_KEY_REF}`,
      ),
      lines[tampered + 1],
    );
    assert.equal(
      lines.at(-2),
      "Errors by rule: legacy/unsigned ×1, schema/minLength ×1, schema/required ×1, " +
        "schema/type ×1, signature/invalid ×1, signature/key-mismatch ×1.",
    );
    assert.equal(lines.at(-1), "Checked 9 manifests and 1 list file: 6 errors in 4 files.");
  });

  it("--json: one line per checked file, and nothing else", async () => {
    const result = await cli(["check", "--offline", dir, "--json", "--now", now]);
    assert.equal(result.status, 1);
    assert.equal(result.stderr, "");
    const lines = checkedFiles(result.stdout);
    assert.equal(lines.length, 10);
    const byFile = new Map(lines.map((l) => [l.file.slice(dir.length + 1), l]));
    assert.deepEqual(byFile.get("current.json"), {
      file: `${dir}/current.json`,
      umid: "urn:current",
      ok: true,
      errors: [],
      warnings: [],
    });
    assert.deepEqual(byFile.get("_keys.json"), {
      file: `${dir}/_keys.json`,
      umid: null,
      ok: true,
      errors: [],
      warnings: [],
    });
    assert.deepEqual(
      byFile.get("pinned/substituted.json")!.errors.map((e) => [e.rule, e.pointer, e.line, e.column]),
      [["signature/key-mismatch", "/signature/publicKeySpkiB64", 14, 25]],
    );
    for (const ok of ["pinned/embedded.json", "pinned/stand-in.json", "legacy/v03.json"])
      assert.equal(byFile.get(ok)?.ok, true, ok);
    assert.equal(byFile.get("legacy/v01-unsigned.json")?.ok, false);
    assert.equal(byFile.get("legacy/v03-no-id.json")!.umid, null);
  });

  it("--now sets the clock of expiry warnings; --strict makes them errors", async () => {
    const before = checkedFiles((await cli(["check", "--offline", dir, "--json", "--now", now])).stdout).find(
      (l) => l.umid === "urn:expiring",
    )!;
    assert.deepEqual(before.warnings, []);
    const afterExpiry = [
      "check",
      "--offline",
      `${dir}/expiring.json`,
      "--json",
      "--content",
      dir,
      "--now",
      "2027-06-01T00:00:00Z",
    ];
    const later = await cli(afterExpiry);
    assert.equal(later.status, 0);
    const [expired] = checkedFiles(later.stdout);
    assert.deepEqual(expired!.errors, []);
    assert.deepEqual(
      expired!.warnings.map((w) => [w.rule, w.pointer, w.line, w.column]),
      [["time/expired", "/expiresAt", 8, 16]],
    );
    // The message names the clock it judged by.
    assert.ok(expired!.warnings[0]!.message.includes("2027-06-01T00:00:00.000Z"), expired!.warnings[0]!.message);
    const strict = await cli([...afterExpiry, "--strict"]);
    assert.equal(strict.status, 1);
    const [strictly] = checkedFiles(strict.stdout);
    assert.deepEqual(
      strictly!.errors.map((e) => e.rule),
      ["time/expired"],
    );
  });

  it(
    "a single file of a content folder is checked against that folder's _keys.json; " +
      "a file outside one against none",
    async () => {
      assert.equal((await cli(["check", "--offline", `${dir}/pinned/stand-in.json`, "--content", dir])).status, 0);
      assert.equal((await cli(["check", "--offline", `${dir}/pinned/substituted.json`, "--content", dir])).status, 1);
      const elsewhere = write("loose/stand-in.json", pinnedManifest("urn:loose", key, null));
      const result = await cli(["check", "--offline", elsewhere, "--content", dir]);
      assert.equal(result.status, 1);
      assert.equal(theProblem(result.stdout, "signature/unverifiable").severity, "error");
    },
  );

  it("under GitHub Actions, also prints annotations", async () => {
    const result = await cli(["check", "--offline", `${dir}/pinned/substituted.json`, "--content", dir], {
      GITHUB_ACTIONS: "true",
    });
    const annotation =
      `::error ` +
      `file=${dir}/pinned/substituted.json,line=14,col=25,title=signature/key-mismatch::${dir}/pinned/substituted.json:14:25 ` +
      `- error signature/key-mismatch: `;
    assert.ok(
      result.stdout.split("\n").some((line) => line.startsWith(annotation)),
      result.stdout,
    );
  });

  it("build lists legacy payloads in its summary", async () => {
    const content = "legacy-only";
    write(`${content}/v03.json`, signed(legacy("0.3"), key));
    const result = await cli(["build", "--content", content, "--out", "legacy-dist"]);
    assert.equal(result.status, 0, result.stderr);
    // The line listing legacy payloads: each file, with its version.
    assert.match(result.stdout, /^legacy .*: legacy-only\/v03\.json \(0\.3\)$/m);
  });
});

describe("check: what it counts as a manifest", () => {
  it("a file the build publishes, not a status list's allocation or a file in a _ folder named like one", async () => {
    const dir = "counted/content";
    write(`${dir}/one.json`, signed(manifestFor("urn:counted:one"), key));
    write(`${dir}/broken.json`, "{");
    write(`${dir}/_status/a.json`, "[]");
    write(`${dir}/_resolvers.json`, "{}");
    // Not content at all: not listed.
    write(`${dir}/_drafts/draft.json`, signed(manifestFor("urn:counted:draft"), key));
    const result = await cli(["check", "--offline", dir]);
    assert.match(
      result.stdout,
      /^Checked 2 manifests and 3 list files: /m,
      "one.json and broken.json; _keys.json (always read), _status/a.json and _resolvers.json",
    );
  });
});

describe("check: _keys.json", () => {
  it("reports a malformed key at its line and column", async () => {
    const path = write("badkeys/_keys.json", { "did:web:a#1": "MCowBQYDK2VwAyEA", "did:web:b#1": 42 });
    const result = await cli(["check", "--offline", "--json", path]);
    assert.equal(result.status, 1);
    const [keys] = checkedFiles(result.stdout);
    assert.equal(keys!.file, "badkeys/_keys.json");
    assert.deepEqual(
      keys!.errors.map((e) => [e.rule, e.pointer, e.line, e.column]),
      [
        ["schema/pattern", "/did:web:a#1", 2, 18],
        ["schema/type", "/did:web:b#1", 3, 18],
      ],
    );
  });
});

describe("check: limits and strict input", () => {
  const deep = write(
    "limits/deep.json",
    signed(
      manifestFor("urn:deep", { facets: [{ "@id": "f", "@type": "um:Facet", entity: { a: { b: { c: {} } } } }] }),
      key,
    ),
  );
  it("nesting deeper than UM_MAX_DEPTH", async () => {
    assert.equal((await cli(["check", "--offline", deep])).status, 0);
    const result = await cli(["check", "--offline", deep], { UM_MAX_DEPTH: "5" });
    assert.equal(result.status, 1);
    assert.deepEqual(problemPlaces(result.stdout), [["limits/deep.json", "limits/depth", 15, 16]]);
  });
  it("nesting as deep as UM_MAX_DEPTH can allow: problems, not a stack overflow", async () => {
    const nested = write("limits/nested.json", `{"@id":"urn:nested","x":${"[".repeat(995)}${"]".repeat(995)}}`);
    const result = await cli(["check", "--offline", "--json", nested], { UM_MAX_DEPTH: "1000" });
    assert.equal(result.status, 1, result.stderr);
    assert.ok(checkedFiles(result.stdout)[0]!.errors.some((e: { rule: string }) => e.rule === "schema/required"));
  });
  it("arrays longer than UM_MAX_ARRAY_ITEMS", async () => {
    const result = await cli(
      [
        "check",
        "--offline",
        write("limits/long.json", signed(manifestFor("urn:long", { devices: [{}, {}, {}] }), key)),
      ],
      { UM_MAX_ARRAY_ITEMS: "2" },
    );
    assert.deepEqual(
      problemPlaces(result.stdout).map(([file, rule]) => [file, rule]),
      [["limits/long.json", "limits/array-length"]],
    );
  });
  it("files larger than UM_MAX_MANIFEST_BYTES, before reading them", async () => {
    const result = await cli(["check", "--offline", deep], { UM_MAX_MANIFEST_BYTES: "100" });
    // Of the file as a whole: no place in it, since it was not read.
    assert.deepEqual(problemPlaces(result.stdout), [["limits/deep.json", "limits/size"]]);
  });
  it("I-JSON: lone surrogates and inexact integers, at their place", async () => {
    const result = await cli([
      "check",
      write("ijson/a.json", '{\n  "@id": "\\uDEAD",\n  "n": 12345678901234567890\n}'),
    ]);
    assert.deepEqual(problemPlaces(result.stdout)[0], ["ijson/a.json", "json/lone-surrogate", 2, 10]);
  });
  it("a bad setting or flag is a usage error, exit 2", async () => {
    // Each names the setting or flag, and the value refused.
    const cases: [string[], Record<string, string>, string[]][] = [
      [["check", "--offline", deep], { UM_MAX_DEPTH: "ten" }, ["UM_MAX_DEPTH", "1000", "'ten'"]],
      // Deeper, and a file nested as deep would exhaust the parser's stack.
      [["check", "--offline", deep], { UM_MAX_DEPTH: "1000000" }, ["UM_MAX_DEPTH", "1000", "'1000000'"]],
      [
        ["check", "--offline", deep],
        { UM_STANDARDS_URL: "universalmanifest.net" },
        ["UM_STANDARDS_URL", "'universalmanifest.net'"],
      ],
      [["check", "--offline", "--now", "tomorrow"], {}, ["--now", "'tomorrow'"]],
      [["check", "--offline", "--now", "2026-13-45T00:00:00Z"], {}, ["--now", "'2026-13-45T00:00:00Z'"]],
    ];
    for (const [args, env, named] of cases) assertUsageError(await cli(args, env), ...named);
  });
  it("a missing path fails, exit 1, and is a JSON line of its own", async () => {
    const result = await cli(["check", "--offline", "--json", "no/such/file.json", deep]);
    assert.equal(result.status, 1);
    const [missing, present] = checkedFiles(result.stdout);
    // Its one error, with every member an error has: the message is words, for people.
    const { message, ...unreadable } = missing!.errors[0]!;
    assert.equal(typeof message, "string");
    assert.deepEqual(
      { ...missing, errors: [unreadable] },
      {
        file: "no/such/file.json",
        umid: null,
        ok: false,
        errors: [{ rule: "file/unreadable", pointer: null, line: null, column: null }],
        warnings: [],
      },
    );
    assert.equal(present!.ok, true);
  });
  it("_routes.json grows with the registry: the per-manifest limits do not apply to it", async () => {
    const redirects = Array.from({ length: 1500 }, (_, i) => ({
      umid: `urn:moved:${i}`,
      location: `https://elsewhere.example/${i}`,
    }));
    const result = await cli(["check", "--offline", write("big-routes/_routes.json", { redirects })], {
      UM_MAX_MANIFEST_BYTES: "1000",
    });
    assert.equal(result.status, 0, result.stdout);
  });
  it("a list file past its own limit names that limit, not a manifest's setting that cannot change it", async () => {
    const routes = write("huge-routes/_routes.json", "{}");
    truncateSync(routes, 65 * 1024 * 1024);
    const result = await cli(["check", "--offline", "--json", routes]);
    assert.equal(result.status, 1, result.stderr);
    const [error] = checkedFiles(result.stdout)[0]!.errors;
    assert.equal(error?.rule, "limits/size");
    assert.match(error!.message, /68157440 bytes; the limit is 67108864 \(fixed for list files/);
    assert.doesNotMatch(error!.message, /UM_MAX_MANIFEST_BYTES/);
  });
  it("a custom standards URL changes the required context", async () => {
    const result = await cli(["check", "--offline", "--json", deep], {
      UM_STANDARDS_URL: "https://standards.example/um/",
    });
    const [errors] = checkedFiles(result.stdout).map((l) => l.errors);
    assert.deepEqual(
      errors!.map((e) => [e.rule, e.pointer]),
      [["schema/anyOf", "/@context"]],
    );
    assert.ok(errors![0]!.message.includes('"https://standards.example/um/ns/v0.4"'), errors![0]!.message);
  });
});
