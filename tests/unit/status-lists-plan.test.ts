/**
 * The status lists a build derives (scripts/plan/status-lists.ts; issue 27, format 3; VC Bitstring Status List
 * §2.2): a list's `validFrom` is the latest start of its members' statuses, but never later than the build, which a
 * relying party would read as a list not valid yet (VC Data Model 2.0 §4.9) and refuse whole.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { decodeStatusList, type StatusBits } from "../../core/status-list/bitstring.ts";
import { readStatusListCredential } from "../../core/status-list/credential.ts";
import { listEntryRef } from "../../core/status-list/list-entry-ref.ts";
import { settingsFromEnv } from "../../scripts/config.ts";
import { PublishedManifests } from "../../scripts/check/published.ts";
import { checkRoutesText } from "../../scripts/check/routes.ts";
import { checkStatusAllocation } from "../../scripts/check/status-allocation.ts";
import { allocateStatusEntries } from "../../scripts/edit/status-allocation.ts";
import { wellKnownRoutes } from "../../scripts/plan/status-lists.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";

const BASE = "https://resolver.example";
const dir = mkdtempSync(join(tmpdir(), "um-status-lists-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("a status list's validFrom", () => {
  // Attack 27: a revokedAt in the future (a typo, or a revocation "scheduled" by hand) made the list valid only from
  // then: every relying party refused it whole, so the revoked manifest read "unchecked", which by default is accepted.
  it("is never later than the build, so a revocation dated in the future is read as revoked now", async () => {
    const refs = await allocateStatusEntries(dir, ["urn:a", "urn:b"], {
      statusBase: BASE,
      resolverUrl: BASE,
      lockWaitMs: 5000,
    });
    assert.ok(refs instanceof Map);
    const settings = settingsFromEnv();
    const routes = checkRoutesText(
      "_routes.json",
      JSON.stringify({ revoked: [{ umid: "urn:b", revokedAt: "2999-01-01T00:00:00Z" }] }),
      schemaValidators(settings.contextUrl, settings.resolverUrl),
    );
    assert.deepEqual(routes.diagnostics, []);
    const published = new PublishedManifests();
    published.add("urn:a", new Uint8Array(32), Date.parse("2026-01-01T00:00:00Z"));
    const now = new Date("2026-06-01T00:00:00Z");
    const content = {
      published,
      revoked: routes.revoked,
      statuses: routes.statuses,
      statusAllocation: checkStatusAllocation(dir, BASE),
    };
    const [document] = await wellKnownRoutes(content, settings.statusNextCheck, undefined, undefined, now);
    const read = readStatusListCredential(JSON.parse(new TextDecoder().decode(document!.bytes)));
    assert.ok(!("problem" in read));
    assert.equal(read.validFrom, now.toISOString());
    const bits = (await decodeStatusList(read.encodedList)) as StatusBits;
    assert.equal(read.meaning(bits.codeAt(listEntryRef(refs.get("urn:b")!)!.index)), "revoked");
  });
});

describe("an allocated entry the resolver answers no status for", () => {
  // Review of issue 27: a UMID redirected elsewhere, or whose manifest was removed without a revocation, read "active"
  // in the list while the status endpoint answered 404: a copy of it was vouched for by the list.
  it("holds 0x3, which means no status; a served one its status, a free one 0", async () => {
    const folder = mkdtempSync(join(dir, "unserved-"));
    const refs = await allocateStatusEntries(folder, ["urn:served", "urn:moved", "urn:removed"], {
      statusBase: BASE,
      resolverUrl: BASE,
      lockWaitMs: 5000,
    });
    assert.ok(refs instanceof Map);
    const published = new PublishedManifests();
    published.add("urn:served", new Uint8Array(32), Date.parse("2026-01-01T00:00:00Z"));
    const content = {
      published,
      revoked: new Set<string>(),
      statuses: new Map(),
      statusAllocation: checkStatusAllocation(folder, BASE),
    };
    const [document] = await wellKnownRoutes(
      content,
      settingsFromEnv().statusNextCheck,
      undefined,
      undefined,
      new Date(),
    );
    const read = readStatusListCredential(JSON.parse(new TextDecoder().decode(document!.bytes)));
    assert.ok(!("problem" in read));
    const bits = (await decodeStatusList(read.encodedList)) as StatusBits;
    const codeOf = (umid: string) => bits.codeAt(listEntryRef(refs.get(umid)!)!.index);
    assert.deepEqual(["urn:served", "urn:moved", "urn:removed"].map(codeOf), [0, 3, 3]);
    assert.equal(read.meaning(3), undefined);
    const taken = new Set(["urn:served", "urn:moved", "urn:removed"].map((u) => listEntryRef(refs.get(u)!)!.index));
    const free = [...Array(bits.entries).keys()].find((i) => !taken.has(i))!;
    assert.equal(bits.codeAt(free), 0);
  });
});
