/**
 * `check --base REV` and `--summary FILE` (issue 11, "history a pull request cannot
 * rewrite"): in scratch git repositories whose content folder lies below the top, the
 * working tree against a commit. Revocation is permanent (EXT-OPT O2.3); a UMID served
 * or redirected must stay answered; a status change must raise the status cursor, which
 * relying parties revalidate with (O2.1, O2.2), and when a status began is not moved
 * (issue 21); the summary says what a change does to the resolver, reasons included.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createHash } from "node:crypto";
import { canonicalize } from "../core/crypto/jcs.ts";
import { checkContent } from "../scripts/check/check-content.ts";
import { settingsFromEnv } from "../scripts/config.ts";
import { displayPath } from "../scripts/read/files.ts";
import { codeSpan } from "../scripts/history/change-summary.ts";
import { stateNow } from "../scripts/history/resolver-state.ts";
import { manifestFor, newKey, pinning, signed } from "./support/fixture-content.ts";
import { assertErrors, CONTENT, historyRepository, json, NOW, type Repository } from "./support/history-repository.ts";
import { runCliInProcess } from "./support/cli-in-process.ts";
import { assertUsageError } from "./support/problems.ts";

const scratch = mkdtempSync(join(tmpdir(), "um-history-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

const key = newKey();
const manifest = (umid: string, extra: Record<string, unknown> = {}) => signed(manifestFor(umid, extra), key);

const BASE_ROUTES = {
  revoked: [{ umid: "urn:gone", revokedAt: "2026-01-02T00:00:00Z" }],
  suspended: [{ umid: "urn:s", suspendedAt: "2026-01-03T00:00:00Z" }],
  redirects: [{ umid: "urn:moved", location: "https://elsewhere.example/moved" }],
};
const baseContent = (): Record<string, unknown> => ({
  "_keys.json": pinning(key),
  "_routes.json": BASE_ROUTES,
  "a.json": manifest("urn:a"),
  "b.json": manifest("urn:b"),
  "nested/c.jsonld": manifest("urn:c"),
  "d.json": manifest("urn:d"),
  "s.json": manifest("urn:s"),
});

/** A repository with `files` (the base content unless told) in its content folder, committed. */
const repository = (
  files: Record<string, unknown> = baseContent(),
  extra: Record<string, string> = {},
  content = CONTENT,
): Repository => historyRepository(scratch, files, extra, content);

/** `file:line:col` of the value of `"umid": "<umid>"` in `text`, as the CLI places it. */
function placeOfUmid(file: string, text: string, umid: string): string {
  const lines = text.split("\n");
  const line = lines.findIndex((l) => l.includes(`"umid": ${JSON.stringify(umid)}`));
  assert.notEqual(line, -1, `${umid} is not in ${file}`);
  return `${file}:${line + 1}:${lines[line]!.indexOf(JSON.stringify(umid)) + 1}`;
}

const errorLines = (stdout: string) => stdout.split("\n").filter((line) => line.includes(" - error "));

describe("check --base: what a change must not do to what was served", () => {
  it("passes content that did not change, and reads nothing as a problem", async () => {
    const repo = repository();
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(errorLines(result.stdout), []);
  });

  it("refuses an un-revocation: the revoked entry removed from the working tree", async () => {
    const repo = repository();
    repo.write("_routes.json", { ...BASE_ROUTES, revoked: [] });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    const was = placeOfUmid(`${CONTENT}/_routes.json@${repo.base}`, json(BASE_ROUTES), "urn:gone");
    assertErrors(result.stdout, [[`${CONTENT}/_routes.json`, "history/unrevoked", ['"urn:gone"', was]]]);
  });

  it("places an un-revocation at the entry that gives the UMID another fate now", async () => {
    const repo = repository({ ...baseContent(), "gone.json": manifest("urn:gone") });
    const routes = {
      ...BASE_ROUTES,
      revoked: [],
      suspended: [...BASE_ROUTES.suspended, { umid: "urn:gone", suspendedAt: "2026-01-04T00:00:00Z" }],
    };
    repo.write("_routes.json", routes);
    const result = await repo.check("--base", "HEAD");
    assert.equal(result.status, 1);
    // Where it was revoked, and the status it has here instead.
    assertErrors(result.stdout, [
      [
        placeOfUmid(`${CONTENT}/_routes.json`, json(routes), "urn:gone"),
        "history/unrevoked",
        ['"urn:gone"', `${CONTENT}/_routes.json@HEAD:`, " suspended "],
      ],
    ]);
  });

  it("refuses a deleted manifest that is neither revoked nor redirected, naming the file that published it", async () => {
    const repo = repository();
    repo.remove("nested/c.jsonld");
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    assertErrors(result.stdout, [[`${CONTENT}/nested/c.jsonld@${repo.base}`, "history/vanished", ['"urn:c"', "404"]]]);
  });

  it("reports history errors as JSON lines of the files they name", async () => {
    const repo = repository();
    repo.remove("a.json");
    const result = await repo.check("--base", repo.base, "--json");
    assert.equal(result.status, 1);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { file: string; umid: string | null; ok: boolean; errors: { rule: string }[] },
      );
    const vanished = lines.find((line) => line.file === `${CONTENT}/a.json@${repo.base}`);
    assert.deepEqual(vanished && { umid: vanished.umid, ok: vanished.ok, rules: vanished.errors.map((e) => e.rule) }, {
      umid: "urn:a",
      ok: false,
      rules: ["history/vanished"],
    });
    assert.deepEqual(
      lines.filter((line) => !line.ok).map((line) => line.file),
      [vanished!.file],
    );
  });

  it("accepts a deleted manifest that is revoked", async () => {
    const repo = repository();
    repo.remove("a.json");
    repo.write("_routes.json", {
      ...BASE_ROUTES,
      revoked: [...BASE_ROUTES.revoked, { umid: "urn:a", revokedAt: "2026-05-01T00:00:00Z" }],
    });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
  });

  it("accepts a deleted manifest that is redirected", async () => {
    const repo = repository();
    repo.remove("a.json");
    repo.write("_routes.json", {
      ...BASE_ROUTES,
      redirects: [...BASE_ROUTES.redirects, { umid: "urn:a", location: "https://elsewhere.example/a" }],
    });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
  });

  it("accepts a manifest moved to another file", async () => {
    const repo = repository();
    repo.remove("a.json");
    repo.write("moved/a.jsonld", manifest("urn:a"));
    assert.equal((await repo.check("--base", repo.base)).status, 0);
  });

  it("refuses a removed redirect, placed where the redirect was", async () => {
    const repo = repository();
    repo.write("_routes.json", { ...BASE_ROUTES, redirects: [] });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    const was = placeOfUmid(`${CONTENT}/_routes.json@${repo.base}`, json(BASE_ROUTES), "urn:moved");
    assertErrors(result.stdout, [[was, "history/vanished", ['"urn:moved"', repo.base, "/redirects/0/umid"]]]);
  });

  it("takes a content folder absent at REV for one where nothing existed", async () => {
    const repo = repository({}, { "README.md": "no content yet\n" });
    for (const [name, value] of Object.entries(baseContent())) repo.write(name, value);
    const added = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(added.status, 0, added.stdout);
    assert.match(
      readFileSync(join(repo.root, "summary.md"), "utf8"),
      /^\| published \| 5 \| `urn:a`, `urn:b`, `urn:c`, `urn:d`, `urn:s` \|$/m,
    );
  });

  it("says nothing of history while _routes.json is not readable now: its own error comes first", async () => {
    const repo = repository();
    repo.write("_routes.json", "{not json");
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    assert.deepEqual(
      errorLines(result.stdout).map((line) => line.split(" - ")[0]),
      [`${CONTENT}/_routes.json:1:2`],
    );
  });

  it("reads a content folder that is the repository's top", async () => {
    const repo = repository(
      { "_keys.json": pinning(key), "a.json": manifest("urn:a"), "b.json": manifest("urn:b") },
      {},
      ".",
    );
    repo.remove("a.json");
    const result = await repo.check("--base", "HEAD");
    assert.deepEqual(
      errorLines(result.stdout).map((line) => line.split(" - ")[0]),
      ["a.json@HEAD"],
    );
  });

  it("is a usage error, exit 2, for a revision git cannot resolve, or a content folder in no repository", async () => {
    const repo = repository();
    const result = await repo.check("--base", "no-such-revision");
    // The revision, and the setting that fetches it in a shallow clone.
    assertUsageError(result, "manifest-resolver: --base: ", "'no-such-revision'", "fetch-depth: 0");
    assert.equal(result.stdout, "");

    const loose = join(scratch, "not-a-repository");
    mkdirSync(loose);
    const outside = await runCliInProcess(["check", "--offline", "--content", loose, "--base", "HEAD"], loose, {
      GIT_CEILING_DIRECTORIES: scratch,
    });
    assertUsageError(outside, "manifest-resolver: --base: ", loose);
  });

  it("is a usage error to name a PATH with --base: the comparison is of the whole folder", async () => {
    const repo = repository();
    const result = await repo.check(`${CONTENT}/a.json`, "--base", repo.base);
    // The flags that compare, and the one that names the folder instead.
    assertUsageError(result, "--base", "--summary", "--content");
  });
});

describe("check --base: a status change must raise the status cursor (history/cursor-regressed)", () => {
  /** What the rule's message names for `umid` going from `from` to `to`, each `[status, since]`. */
  const regressed = (umid: string, [was, since]: [string, string], [is, at]: [string, string]) => [
    JSON.stringify(umid),
    ` ${was} `,
    since,
    ` ${is} `,
    at,
  ];

  it("refuses a suspension added by hand at the manifest's issuedAt, placed at its entry", async () => {
    const repo = repository();
    const routes = {
      ...BASE_ROUTES,
      suspended: [...BASE_ROUTES.suspended, { umid: "urn:a", suspendedAt: "2026-01-01T00:00:00Z" }],
    };
    repo.write("_routes.json", routes);
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    assertErrors(result.stdout, [
      [
        placeOfUmid(`${CONTENT}/_routes.json`, json(routes), "urn:a"),
        "history/cursor-regressed",
        [
          ...regressed("urn:a", ["active", "2026-01-01T00:00:00.000Z"], ["suspended", "2026-01-01T00:00:00.000Z"]),
          "/suspended/1/umid",
        ],
      ],
    ]);
  });

  it("accepts the same suspension dated a second later", async () => {
    const repo = repository();
    repo.write("_routes.json", {
      ...BASE_ROUTES,
      suspended: [...BASE_ROUTES.suspended, { umid: "urn:a", suspendedAt: "2026-01-01T00:00:01Z" }],
    });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(errorLines(result.stdout), []);
  });

  it("refuses a suspended entry deleted by hand: active again since the older issuedAt, named on the manifest", async () => {
    const repo = repository();
    repo.write("_routes.json", { ...BASE_ROUTES, suspended: [] });
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    assertErrors(result.stdout, [
      [
        `${CONTENT}/s.json`,
        "history/cursor-regressed",
        regressed("urn:s", ["suspended", "2026-01-03T00:00:00.000Z"], ["active", "2026-01-01T00:00:00.000Z"]),
      ],
    ]);
  });

  it("accepts manifest-resolver reinstate, which dates the reinstatement after the suspension", async () => {
    const repo = repository();
    const reinstated = await runCliInProcess(["reinstate", "urn:s", "--content", CONTENT], repo.root);
    assert.equal(reinstated.status, 0, reinstated.stdout + reinstated.stderr);
    const routes = JSON.parse(readFileSync(join(repo.root, CONTENT, "_routes.json"), "utf8")) as {
      suspended: unknown[];
      reinstated: { umid: string }[];
    };
    assert.deepEqual([routes.suspended, routes.reinstated.map((entry) => entry.umid)], [[], ["urn:s"]]);
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 0, result.stdout);
    assert.deepEqual(errorLines(result.stdout), []);
  });

  it("refuses a revocation dated earlier than the suspension it replaces", async () => {
    const repo = repository();
    const routes = {
      ...BASE_ROUTES,
      revoked: [...BASE_ROUTES.revoked, { umid: "urn:s", revokedAt: "2026-01-02T12:00:00+01:00" }],
      suspended: [],
    };
    repo.write("_routes.json", routes);
    const result = await repo.check("--base", repo.base);
    assert.equal(result.status, 1);
    assertErrors(result.stdout, [
      [
        placeOfUmid(`${CONTENT}/_routes.json`, json(routes), "urn:s"),
        "history/cursor-regressed",
        [
          ...regressed("urn:s", ["suspended", "2026-01-03T00:00:00.000Z"], ["revoked", "2026-01-02T11:00:00.000Z"]),
          "/revoked/1/umid",
        ],
      ],
    ]);
  });
});

describe(
  "check --base: when a status began is history (history/revocation-redated, " +
    "suspension-redated, reinstatement-redated)",
  () => {
    interface Problem {
      rule: string;
      message: string;
      pointer: string | null;
    }
    /** The errors `check --json --base` reports on `_routes.json` now. */
    const routesErrors = async (repo: Repository): Promise<{ status: number | null; errors: Problem[] }> => {
      const result = await repo.check("--base", repo.base, "--json");
      const lines = result.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { file: string; errors: Problem[] });
      return {
        status: result.status,
        errors: lines.find((line) => line.file === `${CONTENT}/_routes.json`)?.errors ?? [],
      };
    };
    /**
     * Each error as its rule and pointer, and whether its message names the UMID and both times (undefined: undated,
     * served as 1970).
     */
    const named = (errors: Problem[], umid: string, was: string, is: string | undefined) =>
      errors.map(({ rule, pointer, message }) => ({
        rule,
        pointer,
        named: [JSON.stringify(umid), was, is ?? "1970-01-01T00:00:00.000Z"].every((part) => message.includes(part)),
      }));
    /**
     * `_routes.json` made `routes` after the base: refused (exit 1) with `rule` alone, at `pointer`, naming the UMID
     * and both times.
     */
    const refused = async (
      routes: object,
      [umid, was, is]: [string, string, string | undefined],
      rule: string,
      pointer: string,
    ) => {
      const repo = repository();
      repo.write("_routes.json", { ...BASE_ROUTES, ...routes });
      const { status, errors } = await routesErrors(repo);
      assert.equal(status, 1);
      assert.deepEqual(named(errors, umid, was, is), [{ rule, pointer, named: true }]);
    };

    it("refuses a revocation moved into the past, at its revokedAt, naming the UMID, the old and the new time", async () => {
      await refused(
        { revoked: [{ umid: "urn:gone", revokedAt: "2025-06-01T00:00:00Z" }] },
        ["urn:gone", "2026-01-02T00:00:00Z", "2025-06-01T00:00:00Z"],
        "history/revocation-redated",
        "/revoked/0/revokedAt",
      );
    });

    it("refuses a revocation moved later, or left undated: any move of its time", async () => {
      await refused(
        { revoked: [{ umid: "urn:gone", revokedAt: "2026-05-01T00:00:00Z" }] },
        ["urn:gone", "2026-01-02T00:00:00Z", "2026-05-01T00:00:00Z"],
        "history/revocation-redated",
        "/revoked/0/revokedAt",
      );
      await refused(
        { revoked: [{ umid: "urn:gone" }] },
        ["urn:gone", "2026-01-02T00:00:00Z", undefined],
        "history/revocation-redated",
        "/revoked/0",
      );
    });

    it(
      "accepts the same instant written with another offset, a changed reason, and a " +
        "date given to an undated revocation",
      async () => {
        const repo = repository();
        repo.write("_routes.json", {
          ...BASE_ROUTES,
          revoked: [{ umid: "urn:gone", revokedAt: "2026-01-02T01:00:00+01:00", reason: "key compromised" }],
        });
        assert.deepEqual(await routesErrors(repo), { status: 0, errors: [] });
        const undated = repository({
          ...baseContent(),
          "_routes.json": { ...BASE_ROUTES, revoked: [{ umid: "urn:gone" }] },
        });
        undated.write("_routes.json", BASE_ROUTES);
        assert.deepEqual(await routesErrors(undated), { status: 0, errors: [] });
      },
    );

    it("refuses a suspension whose start moved earlier, or was dropped", async () => {
      await refused(
        { suspended: [{ umid: "urn:s", suspendedAt: "2026-01-02T00:00:00Z" }] },
        ["urn:s", "2026-01-03T00:00:00Z", "2026-01-02T00:00:00Z"],
        "history/suspension-redated",
        "/suspended/0/suspendedAt",
      );
      await refused(
        { suspended: [{ umid: "urn:s" }] },
        ["urn:s", "2026-01-03T00:00:00Z", undefined],
        "history/suspension-redated",
        "/suspended/0",
      );
    });

    it(
      "accepts a suspension lifted and suspended again (manifest-resolver reinstate, " +
        "then suspend): a new suspension, which begins later",
      async () => {
        const repo = repository();
        for (const command of [
          ["reinstate", "urn:s"],
          ["suspend", "urn:s", "--reason", "again"],
        ]) {
          const done = await runCliInProcess([...command, "--content", CONTENT], repo.root);
          assert.equal(done.status, 0, done.stdout + done.stderr);
        }
        assert.deepEqual(await routesErrors(repo), { status: 0, errors: [] });
      },
    );

    it("refuses a reinstatement whose time moved earlier", async () => {
      const routes = {
        ...BASE_ROUTES,
        suspended: [],
        reinstated: [{ umid: "urn:s", reinstatedAt: "2026-01-05T00:00:00Z" }],
      };
      const repo = repository({ ...baseContent(), "_routes.json": routes });
      repo.write("_routes.json", { ...routes, reinstated: [{ umid: "urn:s", reinstatedAt: "2026-01-04T00:00:00Z" }] });
      const { status, errors } = await routesErrors(repo);
      assert.equal(status, 1);
      assert.deepEqual(named(errors, "urn:s", "2026-01-05T00:00:00Z", "2026-01-04T00:00:00Z"), [
        { rule: "history/reinstatement-redated", pointer: "/reinstated/0/reinstatedAt", named: true },
      ]);
    });
  },
);

describe("check --summary: what a change does to the resolver", () => {
  const summaryOf = (repo: Repository) => readFileSync(join(repo.root, "summary.md"), "utf8");
  const rows = (summary: string) => summary.split("\n").filter((line) => /^\| [a-z]+ \|/.test(line));

  it("counts and names the UMIDs a change publishes, changes, revokes, suspends, reinstates and redirects", async () => {
    const repo = repository();
    repo.write("e.json", manifest("urn:e"));
    repo.write("pipe.json", manifest("urn:pipe|x"));
    repo.write("b.json", manifest("urn:b", { subject: "did:web:changed.example" }));
    repo.remove("a.json");
    repo.remove("nested/c.jsonld");
    repo.write("_routes.json", {
      revoked: [...BASE_ROUTES.revoked, { umid: "urn:c", revokedAt: "2026-05-01T00:00:00Z" }],
      suspended: [{ umid: "urn:d", suspendedAt: "2026-05-01T00:00:00Z" }],
      reinstated: [{ umid: "urn:s", reinstatedAt: "2026-05-01T00:00:00Z" }],
      redirects: [
        { umid: "urn:moved", location: "https://elsewhere.example/moved-again" },
        { umid: "urn:a", location: "https://elsewhere.example/a" },
      ],
    });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const summary = summaryOf(repo);
    assert.ok(summary.includes(`Compared with \`${repo.base}\`. Checked `), summary);
    assert.deepEqual(rows(summary), [
      "| published | 2 | `urn:e`, `urn:pipe\\|x` |",
      "| changed | 1 | `urn:b` |",
      "| revoked | 1 | `urn:c` |",
      "| suspended | 1 | `urn:d` |",
      "| reinstated | 1 | `urn:s` |",
      "| redirected | 2 | `urn:a`, `urn:moved` |",
    ]);
    assert.doesNotMatch(summary, /Nothing changes/);
  });

  it("does not call a failing manifest changed when it is not, recalled from the cache or not", async () => {
    // A manifest whose signature no longer verifies, committed so: the same failing bytes at the base and now.
    const tampered = { ...manifest("urn:b"), subject: "did:web:tampered.example" };
    const repo = repository({ ...baseContent(), "b.json": tampered });
    for (const run of ["checked", "recalled from the cache"]) {
      const result = await repo.check("--base", repo.base, "--summary", "summary.md");
      assert.equal(result.status, 1, `${run}: ${result.stdout}`);
      assert.ok(
        rows(summaryOf(repo)).every((row) => / \| 0 \| {2}\|$/.test(row)),
        `${run}: ${summaryOf(repo)}`,
      );
    }
  });

  it("says so when nothing changes, a file merely re-indented included", async () => {
    const repo = repository();
    repo.write("b.json", JSON.stringify(manifest("urn:b"), null, "\t"));
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const summary = summaryOf(repo);
    assert.ok(
      rows(summary).every((row) => / \| 0 \| {2}\|$/.test(row)),
      summary,
    );
    assert.match(
      summary,
      /^Nothing changes: no UMID is published, changed, revoked, suspended, reinstated or redirected\.$/m,
    );
  });

  it("names each UMID whose status reason changes, with the old and the new reason", async () => {
    const repo = repository({
      ...baseContent(),
      "_routes.json": { ...BASE_ROUTES, revoked: [{ ...BASE_ROUTES.revoked[0]!, reason: "superseded" }] },
    });
    repo.write("_routes.json", {
      ...BASE_ROUTES,
      revoked: [{ ...BASE_ROUTES.revoked[0]!, reason: "key | compromised" }],
      suspended: [{ ...BASE_ROUTES.suspended[0]!, reason: "under review" }],
    });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const summary = summaryOf(repo);
    assert.match(summary, /^\| reason changed \| 2 \| `urn:gone`, `urn:s` \|$/m);
    assert.ok(
      summary.includes(
        [
          "| UMID | Status | Reason before | Reason now |",
          "| --- | --- | --- | --- |",
          "| `urn:gone` | revoked | `superseded` | `key \\| compromised` |",
          "| `urn:s` | suspended | none | `under review` |",
        ].join("\n"),
      ),
      summary,
    );
    assert.doesNotMatch(summary, /Nothing changes/);
  });

  it("counts a suspension lifted and suspended again in the same change as suspended", async () => {
    const repo = repository();
    repo.write("_routes.json", { ...BASE_ROUTES, suspended: [{ umid: "urn:s", suspendedAt: "2026-05-01T00:00:00Z" }] });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    assert.match(summaryOf(repo), /^\| suspended \| 1 \| `urn:s` \|$/m);
  });

  it("is written when the check fails, with the check's result", async () => {
    const repo = repository();
    repo.write("_routes.json", { ...BASE_ROUTES, revoked: [] });
    const result = await repo.check("--base", repo.base, "--summary", "summary.md");
    assert.equal(result.status, 1);
    assert.match(summaryOf(repo), /Checked \d+ manifests and 2 list files: 1 error in 1 file\./);
  });

  it("without --base compares with nothing: every UMID is new, the first five named", async () => {
    const repo = repository({ ...baseContent(), "f.json": manifest("urn:f"), "g.json": manifest("urn:g") });
    const result = await repo.check("--summary", "summary.md");
    assert.equal(result.status, 0, result.stdout);
    const summary = summaryOf(repo);
    assert.match(summary, /^Compared with nothing \(no --base\): everything is new\./m);
    // urn:gone is revoked, urn:s suspended and urn:moved redirected: new, as everything is.
    assert.deepEqual(rows(summary), [
      "| published | 7 | `urn:a`, `urn:b`, `urn:c`, `urn:d`, `urn:f`, … |",
      "| changed | 0 |  |",
      "| revoked | 1 | `urn:gone` |",
      "| suspended | 1 | `urn:s` |",
      "| reinstated | 0 |  |",
      "| redirected | 1 | `urn:moved` |",
    ]);
  });

  it("refuses a summary file in a folder that does not exist, before checking", async () => {
    const repo = repository();
    const result = await repo.check("--base", repo.base, "--summary", "no/such/folder/summary.md");
    assertUsageError(result, "--summary", "no/such/folder ", "no/such/folder/summary.md");
  });
});

describe("codeSpan: a UMID in a GitHub table cell", () => {
  it("escapes every pipe, so that no UMID ends its cell", async () => {
    assert.equal(codeSpan("a|b|c"), "`a\\|b\\|c`");
  });

  it("gives a pipe after an odd run of backslashes one more, since \\\\ escapes itself", async () => {
    assert.equal(codeSpan("a\\|b"), "`a\\\\\\|b`");
    assert.equal(codeSpan("a\\\\|b"), "`a\\\\\\|b`");
  });

  it("fences backticks with a longer run, padded where they start or end the span", async () => {
    assert.equal(codeSpan("a`b``c"), "```a`b``c```");
    assert.equal(codeSpan("`a"), "`` `a ``");
  });

  it("quotes a long text as an excerpt: a UMID of 120,000 characters is not a summary of as many", async () => {
    assert.equal(codeSpan("u".repeat(120_000)), `\`${"u".repeat(200)}… (119800 more characters)\``);
  });
  it("writes line breaks and other control characters as escapes, which keep the row on one line", async () => {
    assert.equal(codeSpan("a\nb\u202e"), "`a\\nb\\u202e`");
  });
});

describe("the working tree's state", () => {
  it("is what the check found: no file is read again, though it changed meanwhile", async () => {
    const dir = join(scratch, "state-now");
    const files: Record<string, unknown> = {
      ...baseContent(),
      // Invalid (its signature no longer verifies) but still claiming its UMID: served as it is.
      "e.json": { ...manifest("urn:e"), issuedAt: "2026-02-01T00:00:00Z" },
    };
    for (const [name, value] of Object.entries(files)) {
      mkdirSync(join(dir, name, ".."), { recursive: true });
      writeFileSync(join(dir, name), json(value));
    }
    const check = await checkContent(dir, { settings: settingsFromEnv({}), now: new Date(NOW), strict: false });
    assert.ok(check.diagnostics.some((d) => d.file.endsWith("e.json") && d.severity === "error"));
    // Changed after the check: the comparison must still be about what was checked.
    writeFileSync(join(dir, "_routes.json"), json({ revoked: [{ umid: "urn:a", revokedAt: NOW }] }));
    writeFileSync(join(dir, "b.json"), json(manifest("urn:b", { issuedAt: "2026-03-01T00:00:00Z" })));
    writeFileSync(join(dir, "e.json"), json(manifest("urn:e", { issuedAt: "2026-04-01T00:00:00Z" })));

    const state = stateNow(check, dir);
    const digest = (value: unknown) => createHash("sha256").update(canonicalize(value)).digest("hex");
    assert.deepEqual([...state.statuses.keys()].sort(), ["urn:gone", "urn:s"]);
    assert.deepEqual([...state.redirects.keys()], ["urn:moved"]);
    assert.deepEqual([...state.published.keys()].sort(), ["urn:a", "urn:b", "urn:c", "urn:d", "urn:e", "urn:s"]);
    // The digest as stateAt computes it from a blob: the same hash, the same encoding.
    assert.deepEqual(state.published.get("urn:b"), {
      file: displayPath(join(dir, "b.json")),
      digest: digest(files["b.json"]),
      issuedAt: Date.parse("2026-01-01T00:00:00Z"),
    });
    assert.equal(state.published.get("urn:e")!.digest, digest(files["e.json"]));
    assert.equal(state.published.get("urn:e")!.issuedAt, Date.parse("2026-02-01T00:00:00Z"));
  });
});
