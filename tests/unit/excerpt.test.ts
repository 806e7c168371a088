import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { excerpt, EXCERPT_LENGTH, pointerExcerpt, quoted } from "../../core/excerpt.ts";

describe("excerpts of values quoted in messages", () => {
  it("keeps a short value whole, and cuts a long one, saying how much was left out", () => {
    assert.equal(excerpt("x".repeat(EXCERPT_LENGTH)), "x".repeat(EXCERPT_LENGTH));
    assert.equal(excerpt("x".repeat(EXCERPT_LENGTH + 1)), `${"x".repeat(EXCERPT_LENGTH)}… (1 more character)`);
    assert.equal(excerpt("9".repeat(1_000_000)), `${"9".repeat(EXCERPT_LENGTH)}… (999800 more characters)`);
  });
  it("never cuts a surrogate pair in two", () => {
    const cut = excerpt(`${"x".repeat(EXCERPT_LENGTH - 1)}😀${"x".repeat(10)}`);
    assert.ok(cut.isWellFormed());
    assert.ok(cut.startsWith(`${"x".repeat(EXCERPT_LENGTH - 1)}… (12 more characters)`), cut);
  });
  it("quotes any value as JSON, and one that is not JSON without throwing", () => {
    assert.equal(quoted("a\nb"), '"a\\nb"');
    assert.equal(quoted("s".repeat(1000)), `"${"s".repeat(EXCERPT_LENGTH - 1)}… (802 more characters)`);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    assert.deepEqual(
      [quoted(10n), quoted(cycle), quoted(undefined)],
      ["10", "(an object that is not JSON)", "undefined"],
    );
  });
  it("cuts each member name of a long pointer, keeping its shape", () => {
    assert.equal(pointerExcerpt("/facets/0/name"), "/facets/0/name");
    assert.equal(
      pointerExcerpt(`/a/${"k".repeat(300)}/b`),
      `/a/${"k".repeat(EXCERPT_LENGTH)}… (100 more characters)/b`,
    );
    // Printed again (a receipt's pointer, by evaluate's diagnostics), it is not cut twice.
    assert.equal(
      pointerExcerpt(pointerExcerpt(`/a/${"k".repeat(300)}/b`)),
      `/a/${"k".repeat(EXCERPT_LENGTH)}… (100 more characters)/b`,
    );
  });
});
