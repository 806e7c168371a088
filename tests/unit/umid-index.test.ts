/** The status list allocation's compact index of UMIDs (scripts/check/umid-index.ts): a Map's answers in typed arrays. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UmidIndex } from "../../scripts/check/umid-index.ts";

describe("UmidIndex", () => {
  it("answers as a Map of the same UMIDs does, past every growth of its arrays and table", () => {
    const index = new UmidIndex();
    const map = new Map<string, number>();
    // Alike and unlike UMIDs, an empty one, "__proto__" and ones beyond ASCII.
    const umids = [
      "",
      "__proto__",
      "constructor",
      "urn:é",
      "urn:\u{1F600}",
      ...Array.from({ length: 5000 }, (_, i) => `urn:uuid:${i}`),
    ];
    for (const [value, umid] of umids.entries()) {
      assert.equal(index.add(umid, value), map.get(umid));
      if (!map.has(umid)) map.set(umid, value);
    }
    assert.equal(index.size, map.size);
    for (const umid of umids) assert.equal(index.get(umid), map.get(umid), umid);
    for (const umid of ["urn:uuid:5000", "urn:uuid:-1", "URN:UUID:1", "urn:e"])
      assert.equal(index.get(umid), undefined);
  });

  it("keeps a UMID's first number: adding it again returns that, and changes nothing", () => {
    const index = new UmidIndex();
    assert.equal(index.add("urn:a", 7), undefined);
    assert.equal(index.add("urn:a", 9), 7);
    assert.equal(index.get("urn:a"), 7);
    assert.equal(index.size, 1);
  });
});
