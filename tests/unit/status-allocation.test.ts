/**
 * Allocating status list entries (scripts/edit/status-allocation.ts; issue 27, section 1): entries of a UMID kept,
 * a new list started when every list is full (its capacity made small here, where a real one holds 131,072), and
 * nothing written when the allocation on disk is refused; and a statusRef held to its manifest's own entry however
 * the list's URL is spelt.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { STATUS_LIST_ENTRIES } from "../../core/status-list/bitstring.ts";
import { listEntryRef, statusListUrl } from "../../core/status-list/list-entry-ref.ts";
import { checkStatusAllocation } from "../../scripts/check/status-allocation.ts";
import { statusRefProblem } from "../../scripts/check/status-refs.ts";
import { allocateStatusEntries } from "../../scripts/edit/status-allocation.ts";

const BASE = "https://resolver.example";
const scratch = mkdtempSync(join(tmpdir(), "um-allocation-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
const allocate = (dir: string, umids: string[], capacity = 4) =>
  allocateStatusEntries(dir, umids, { statusBase: BASE, resolverUrl: BASE, lockWaitMs: 5000, capacity });
const newContent = () => join(scratch, `c${folders++}`);

describe("allocating status list entries", () => {
  it("starts a new list when every list is full, each entry unique and kept", async () => {
    const dir = newContent();
    const first = await allocate(dir, ["a", "b", "c", "d"]);
    assert.ok(first instanceof Map);
    assert.equal(new Set([...first.values()].map((ref) => listEntryRef(ref)!.listUrl)).size, 1);
    assert.equal(new Set(first.values()).size, 4);
    const second = await allocate(dir, ["a", "e"]);
    assert.ok(second instanceof Map);
    assert.equal(second.get("a"), first.get("a"));
    assert.notEqual(listEntryRef(second.get("e")!)!.listUrl, listEntryRef(first.get("a")!)!.listUrl);
    assert.equal(readdirSync(join(dir, "_status")).length, 2);
    const allocation = checkStatusAllocation(dir, BASE);
    assert.deepEqual(allocation.diagnostics, []);
    assert.equal(allocation.size, 5);
    for (const umid of ["a", "b", "c", "d", "e"]) assert.ok(allocation.entryOf(umid), umid);
  });

  it("refuses a status base other than UM_RESOLVER_URL, and writes nothing", async () => {
    // Attack 27: sign --status-base elsewhere wrote a list that check then refuses (status-list/url-mismatch), and
    // signed its manifests into it.
    const dir = newContent();
    const refused = await allocateStatusEntries(dir, ["a"], {
      statusBase: "https://elsewhere.example",
      resolverUrl: BASE,
      lockWaitMs: 5000,
    });
    assert.ok(!(refused instanceof Map));
    assert.deepEqual(
      refused.diagnostics.map((d) => d.rule),
      ["status-list/url-mismatch"],
    );
    assert.equal(existsSync(join(dir, "_status")), false);
  });

  it("refuses to allocate into an allocation check refuses, and writes nothing", async () => {
    const dir = newContent();
    assert.ok((await allocate(dir, ["a"])) instanceof Map);
    const [name] = readdirSync(join(dir, "_status"));
    const path = join(dir, "_status", name!);
    writeFileSync(path, `{"url": "${BASE}/.well-known/manifest-resolver/status-list/${name!.slice(0, -5)}"}`);
    const refused = await allocate(dir, ["b"]);
    assert.ok(!(refused instanceof Map));
    assert.deepEqual(
      refused.diagnostics.map((d) => d.rule),
      ["status-list/bad-allocation"],
    );
    assert.deepEqual(readdirSync(join(dir, "_status")), [name]);
  });
});

describe("a crafted allocation file", () => {
  // Attack 27: a list file of millions of entries (64 MiB is allowed) made check, build and sign run out of memory, one
  // diagnostic an entry; a list holds at most 131,072 entries, so more is refused whole.
  it("refuses a list of more entries than a list holds with one problem, not one an entry", () => {
    const dir = newContent();
    mkdirSync(join(dir, "_status"), { recursive: true });
    const entries = new Array(STATUS_LIST_ENTRIES + 1).fill('[0, "a"]').join(",");
    const url = statusListUrl(BASE, "abc");
    writeFileSync(join(dir, "_status", "abc.json"), `{"url": "${url}", "entries": [${entries}]}`);
    const allocation = checkStatusAllocation(dir, BASE);
    assert.deepEqual(
      allocation.diagnostics.map((d) => d.rule),
      ["limits/array-length"],
    );
  });
});

describe("content/_status that is not a folder", () => {
  // Attack 27: a file named _status was read as an empty allocation (every list statusRef unchecked without
  // UM_RESOLVER_URL), and sign --status-list crashed on it.
  it("is refused by check, and by sign before it writes anything", async () => {
    const dir = newContent();
    mkdirSync(dir);
    writeFileSync(join(dir, "_status"), "not a folder");
    assert.deepEqual(
      checkStatusAllocation(dir, "").diagnostics.map((d) => d.rule),
      ["status-list/bad-allocation"],
    );
    const refused = await allocate(dir, ["a"]);
    assert.ok(!(refused instanceof Map));
    assert.deepEqual(
      refused.diagnostics.map((d) => d.rule),
      ["status-list/bad-allocation"],
    );
  });
});

describe("a statusRef held to the allocation (status-refs.ts)", () => {
  // Attack 27: another UMID's entry named by another spelling of its list's URL, which a relying party that compares
  // URLs once parsed reads as that list, while check compared them as strings.
  it("refuses another UMID's entry however the list's URL is spelt, and its own entry spelt otherwise", async () => {
    const dir = newContent();
    const refs = await allocate(dir, ["a", "b"]);
    assert.ok(refs instanceof Map);
    const allocation = checkStatusAllocation(dir, BASE);
    const { listUrl, index } = listEntryRef(refs.get("a")!)!;
    const id = listUrl.slice(listUrl.lastIndexOf("/") + 1);
    const spellings = [
      listUrl.replace("resolver.example", "RESOLVER.example"),
      listUrl.replace("resolver.example", "resolver.example."),
      listUrl.replace("resolver.example", "resolver.example:443"),
      listUrl.replace("resolver.example", "user@resolver.example"),
      listUrl.replace("/.well-known", "/x/../.well-known"),
      listUrl.replace("/.well-known", "/./.well-known"),
      listUrl.replace(`/${id}`, `/%${id.charCodeAt(0).toString(16)}${id.slice(1)}`),
      `${listUrl}?x=1`,
      `${listUrl}/`,
    ];
    const ruleOf = (umid: string, ref: string) =>
      statusRefProblem(allocation, "", "m.json", umid, { ref, line: 1, column: 1 })?.rule;
    for (const spelt of spellings) {
      assert.equal(ruleOf("b", `${spelt}#${index}`), "status-list/borrowed-index", spelt);
      assert.equal(ruleOf("a", `${spelt}#${index}`), "status-list/unallocated-list", spelt);
    }
    assert.equal(ruleOf("b", `${listUrl}#0${index}`), "status-list/borrowed-index");
    assert.equal(ruleOf("b", listUrl), "status-list/borrowed-index");
    assert.equal(ruleOf("a", refs.get("a")!), undefined);
    assert.equal(ruleOf("b", refs.get("b")!), undefined);
    assert.equal(
      statusRefProblem(allocation, BASE, "m.json", "b", {
        ref: `${statusListUrl(BASE.toUpperCase().replace("HTTPS", "https"), "0123456789abcdef")}#5`,
        line: 1,
        column: 1,
      })?.rule,
      "status-list/unallocated-list",
    );
  });
});
