/**
 * The publisher's half of status lists (issue 27, section 1; EXT-OPT O2.4, VC Bitstring Status List §2.1):
 * `sign --status-list` allocating entries at random in content/_status/, and `check` holding the allocation and the
 * manifests' statusRefs to it (a borrowed index, an index outside its list, a list not allocated, one index twice).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { listEntryRef, statusListUrl } from "../core/status-list/list-entry-ref.ts";
import { FIXTURE_KEY_REF, FIXTURE_RESOLVER_URL } from "./support/fixture-content.ts";
import { type StatusListScratch, statusListScratch } from "./support/status-list-content.ts";

const scratches: StatusListScratch[] = [];
after(() => {
  for (const { dir } of scratches) rmSync(dir, { recursive: true, force: true });
});

function scratch(): StatusListScratch {
  const made = statusListScratch("um-status-sign-");
  scratches.push(made);
  return made;
}

/** `check --json` of the scratch's content: its exit status and the rules of its errors. */
async function checkRules({ cli, content }: StatusListScratch): Promise<{ status: number | null; rules: string[] }> {
  const run = await cli(["check", "--json", "--content", content]);
  const rules = run.stdout
    .trim()
    .split("\n")
    .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
  return { status: run.status, rules: rules.sort() };
}

/** A content folder of `n` manifests, `m<i>.json` for `urn:list:<i>`, signed into status lists. */
async function signedContent(n: number): Promise<StatusListScratch> {
  const made = scratch();
  for (let i = 0; i < n; i++) made.write(`m${i}.json`, `urn:list:${i}`);
  const run = await made.sign();
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return made;
}

describe("sign --status-list (issue 27, section 1)", () => {
  it("gives each manifest an entry of one list at random, unique, kept in content/_status/", async () => {
    const made = await signedContent(30);
    const lists = [...made.allocation()];
    assert.equal(lists.length, 1);
    const [name, { url, entries }] = lists[0]!;
    assert.match(name, /^[0-9a-f]{16}\.json$/);
    assert.equal(url, statusListUrl(FIXTURE_RESOLVER_URL, name.slice(0, -5)));
    const indices = entries.map(([index]) => index);
    assert.equal(new Set(indices).size, 30);
    assert.deepEqual(
      indices,
      [...indices].sort((a, b) => a - b),
    );
    // Not handed out in order: thirty draws among 131,072 are never consecutive.
    assert.ok(indices.some((index, i) => i > 0 && index !== indices[i - 1]! + 1));
    for (let i = 0; i < 30; i++) {
      const manifest = made.manifest(`m${i}.json`);
      const ref = listEntryRef(manifest.signature.statusRef);
      assert.equal(ref?.listUrl, url);
      assert.deepEqual(
        entries.find(([, umid]) => umid === manifest["@id"]),
        [ref!.index, manifest["@id"]],
      );
    }
    // One entry a line, so that git merges two allocations into one list.
    const text = readFileSync(join(made.content, "_status", name), "utf8");
    assert.equal(text.split("\n").filter((line) => /^ {4}\[\d+, "urn:list:\d+"\],?$/.test(line)).length, 30);
    assert.deepEqual(await checkRules(made), { status: 0, rules: [] });
  });

  it("keeps a UMID's entry when it is signed again, and never gives a revoked UMID's entry to another", async () => {
    const made = await signedContent(3);
    const before = made.manifest("m0.json").signature.statusRef;
    assert.equal((await made.cli(["revoke", "urn:list:1", "--content", made.content])).status, 0);
    rmSync(join(made.content, "m1.json"));
    made.write("m3.json", "urn:list:3");
    assert.equal((await made.sign()).status, 0);
    assert.equal(made.manifest("m0.json").signature.statusRef, before);
    const { entries } = [...made.allocation().values()][0]!;
    assert.equal(entries.length, 4);
    assert.equal(new Set(entries.map(([index]) => index)).size, 4);
    assert.ok(entries.some(([, umid]) => umid === "urn:list:1"));
  });

  it("two runs at once never hand out one index twice", async () => {
    const made = scratch();
    for (let i = 0; i < 40; i++) made.write(`m${i}.json`, `urn:list:${i}`);
    const halves = [0, 1].map((half) => Array.from({ length: 20 }, (_, i) => `m${half * 20 + i}.json`));
    const runs = await Promise.all(halves.map((files) => made.signApart(...files)));
    for (const run of runs) assert.equal(run.status, 0, run.stdout + run.stderr);
    const entries = [...made.allocation().values()].flatMap((list) => list.entries);
    assert.equal(entries.length, 40);
    assert.equal(new Set(entries.map(([index]) => index)).size, 40);
    assert.deepEqual(await checkRules(made), { status: 0, rules: [] });
  });

  it("writes no list through a _status/ that is a symbolic link: content/symlink, nothing signed", async () => {
    const made = scratch();
    made.write("a.json", "urn:linked");
    const elsewhere = join(made.dir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(made.content, "_status"));
    const before = readFileSync(join(made.content, "a.json"), "utf8");
    const run = await made.sign();
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /content\/_status - error content\/symlink: /);
    assert.deepEqual(readdirSync(elsewhere), [], "nothing written where the link points");
    assert.equal(readFileSync(join(made.content, "a.json"), "utf8"), before);
  });

  it("is a usage error without a status base", async () => {
    const made = scratch();
    made.write("a.json", "urn:a");
    const run = await made.cli(
      ["sign", made.content, "--key", made.keyFile, "--key-ref", "did:web:fixture.example#key-1", "--status-list"],
      { UM_RESOLVER_URL: "" },
    );
    assert.equal(run.status, 2, run.stderr);
  });

  it("is a usage error for a status base no client can fetch from: credentials, a query or a fragment", async () => {
    // Attack (issue 37): every statusRef written under such a base names a URL no client resolves.
    for (const base of [
      "https://u:p@resolver.example/?x=",
      "https://resolver.example/?x=",
      "https://resolver.example/#f",
    ])
      for (const list of [["--status-list"], []]) {
        const made = scratch();
        made.write("a.json", "urn:a");
        const unsigned = readFileSync(join(made.content, "a.json"), "utf8");
        const run = await made.cli(
          ["sign", made.content, "--key", made.keyFile, "--key-ref", FIXTURE_KEY_REF, "--status-base", base, ...list],
          { UM_RESOLVER_URL: "" },
        );
        assert.equal(run.status, 2, `${base} ${list}: ${run.stdout}${run.stderr}`);
        assert.match(run.stderr, /^manifest-resolver: --status-base /, run.stderr);
        // Nothing written: no allocation, the manifest as it was.
        assert.equal(existsSync(join(made.content, "_status")), false);
        assert.equal(readFileSync(join(made.content, "a.json"), "utf8"), unsigned);
      }
  });
});

describe("check of the allocation and the statusRefs (issue 27, section 1)", () => {
  /** Rewrites manifest `file`'s statusRef (outside the signing input: the signature still verifies). */
  const pointStatusRef = (made: StatusListScratch, file: string, statusRef: string) => {
    const manifest = made.manifest(file);
    manifest.signature.statusRef = statusRef;
    writeFileSync(join(made.content, file), JSON.stringify(manifest, null, 2));
  };
  /** Rewrites the one list file of the allocation with `edit`. */
  const editAllocation = (made: StatusListScratch, edit: (text: string) => string) => {
    const [name] = [...made.allocation().keys()];
    const path = join(made.content, "_status", name!);
    writeFileSync(path, edit(readFileSync(path, "utf8")));
  };

  it("refuses a borrowed index: one manifest's statusRef copied into another", async () => {
    const made = await signedContent(2);
    pointStatusRef(made, "m1.json", made.manifest("m0.json").signature.statusRef);
    assert.deepEqual(await checkRules(made), { status: 1, rules: ["status-list/borrowed-index"] });
  });

  it("refuses a borrowed index in a manifest checked on its own, as the content's check does", async () => {
    // Attack: `check PATH` (a pre-commit hook's changed files) judged the statusRef without the allocation.
    const made = await signedContent(2);
    pointStatusRef(made, "m1.json", made.manifest("m0.json").signature.statusRef);
    const run = await made.cli(["check", "--json", "--content", made.content, join(made.content, "m1.json")]);
    const rules = run.stdout
      .trim()
      .split("\n")
      .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
    assert.deepEqual({ status: run.status, rules }, { status: 1, rules: ["status-list/borrowed-index"] });
  });

  it("refuses an index outside its list, and an entry allocated to no UMID", async () => {
    const made = await signedContent(1);
    const { listUrl } = listEntryRef(made.manifest("m0.json").signature.statusRef)!;
    pointStatusRef(made, "m0.json", `${listUrl}#131072`);
    assert.deepEqual(await checkRules(made), { status: 1, rules: ["status-list/index-out-of-range"] });
    pointStatusRef(made, "m0.json", `${listUrl}#131071`);
    assert.deepEqual(await checkRules(made), { status: 1, rules: ["status-list/borrowed-index"] });
  });

  it("refuses a statusRef into a list of this resolver that the content does not allocate", async () => {
    const made = await signedContent(1);
    pointStatusRef(made, "m0.json", `${statusListUrl(FIXTURE_RESOLVER_URL, "0123456789abcdef")}#5`);
    assert.deepEqual(await checkRules(made), { status: 1, rules: ["status-list/unallocated-list"] });
  });

  it("refuses one index twice, one UMID twice, an index out of range, another url and a malformed file", async () => {
    const made = await signedContent(2);
    const { entries } = [...made.allocation().values()][0]!;
    const [[first], [, second]] = entries as [[number, string], [number, string]];
    editAllocation(made, (text) => text.replace(/\[\d+, "(urn:list:\d+)"\]\n/, `[${first}, "$1"]\n`));
    assert.deepEqual(await checkRules(made), {
      status: 1,
      rules: ["status-list/borrowed-index", "status-list/duplicate-index"],
    });
    editAllocation(made, (text) => text.replace(`[${first}, "${second}"]`, `[131072, "${second}"]`));
    assert.deepEqual(await checkRules(made), {
      status: 1,
      rules: ["status-list/borrowed-index", "status-list/index-out-of-range"],
    });
    editAllocation(made, (text) => text.replace(`[131072, "${second}"]`, `[7, "${entries[0]![1]}"]`));
    assert.deepEqual(await checkRules(made), {
      status: 1,
      rules: ["status-list/borrowed-index", "status-list/duplicate-umid"],
    });
    editAllocation(made, (text) => text.replace("https://fixture.example:8443", "https://elsewhere.example"));
    assert.ok((await checkRules(made)).rules.includes("status-list/url-mismatch"));
    editAllocation(made, (text) => text.replace('"entries"', '"entry"'));
    assert.ok((await checkRules(made)).rules.includes("status-list/bad-allocation"));
  });

  it("refuses a list whose URL carries credentials or a query, and every statusRef into such a list", async () => {
    // As an older sign wrote them from --status-base 'https://u:p@resolver.example/?x=', without UM_RESOLVER_URL.
    const made = await signedContent(2);
    const [name, { url }] = [...made.allocation()][0]!;
    const unusable = statusListUrl("https://u:p@resolver.example/?x=", name.slice(0, -".json".length));
    editAllocation(made, (text) => text.replace(url, unusable));
    for (const file of ["m0.json", "m1.json"])
      pointStatusRef(made, file, made.manifest(file).signature.statusRef.replace(url, unusable));
    const run = await made.cli(["check", "--json", "--content", made.content], { UM_RESOLVER_URL: "" });
    const rules = run.stdout
      .trim()
      .split("\n")
      .flatMap((line) => (JSON.parse(line) as { errors: { rule: string }[] }).errors.map((e) => e.rule));
    // The list's url, and each statusRef into it, by one rule of what a client can fetch (core/http/base-url.ts).
    assert.deepEqual(
      { status: run.status, rules: rules.sort() },
      {
        status: 1,
        rules: ["signature/status-ref-unusable", "signature/status-ref-unusable", "status-list/unusable-url"],
      },
    );
    // A list of another resolver is held to the same rule: no client can fetch it either.
    const foreign = `${statusListUrl("https://peer.example/?x=", "0123456789abcdef")}#5`;
    pointStatusRef(made, "m0.json", foreign);
    const again = await made.cli(["check", "--json", "--content", made.content, join(made.content, "m0.json")]);
    assert.equal(again.status, 1, again.stdout);
    assert.match(again.stdout, /"rule":"signature\/status-ref-unusable"/);
  });

  it("checks a file of the allocation, or _resolvers.json, named on its own as what it is", async () => {
    const made = await signedContent(1);
    const [name] = [...made.allocation().keys()];
    const list = join(made.content, "_status", name!);
    const run = async (path: string) => {
      const checked = await made.cli(["check", "--json", "--content", made.content, path]);
      const [file] = checked.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { errors: { rule: string }[] });
      return { status: checked.status, rules: file!.errors.map((e) => e.rule) };
    };
    assert.deepEqual(await run(list), { status: 0, rules: [] });
    editAllocation(made, (text) => text.replace('"entries"', '"entry"'));
    assert.deepEqual(await run(list), {
      status: 1,
      rules: ["status-list/bad-allocation", "status-list/bad-allocation"],
    });
    const resolvers = join(made.content, "_resolvers.json");
    writeFileSync(resolvers, JSON.stringify({ resolver: "did:web:fixture.example", peers: [] }));
    assert.deepEqual(await run(resolvers), { status: 0, rules: [] });
    writeFileSync(resolvers, JSON.stringify({ resolver: "fixture", peers: [] }));
    assert.deepEqual(await run(resolvers), { status: 1, rules: ["resolvers/bad-document"] });
  });
});
