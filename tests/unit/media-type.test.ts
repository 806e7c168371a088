/** Content negotiation by `Accept` (RFC 9110 §12.5.1), as the resolver's own address uses it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { preferredMediaType } from "../../core/media-type.ts";

const OFFERED = ["application/json", "text/html"];

test("preferredMediaType: weights, the most specific range, the server's order on a tie", () => {
  const table: [string | null, string | undefined][] = [
    [null, "application/json"],
    ["", undefined],
    ["*/*", "application/json"],
    ["text/html", "text/html"],
    ["TEXT/HTML", "text/html"],
    ["text/html, application/json", "application/json"],
    ["text/html;q=1, application/json;q=0.999", "text/html"],
    ["text/html;level=1;q=0.4, application/json;q=0.3", "text/html"],
    ["text/html ; Q=0.9 , application/json;q=0.8", "text/html"],
    ["text/*;q=0.5, application/*;q=0.4", "text/html"],
    ["text/html;q=0, */*", "application/json"],
    ["application/json;q=0, text/*;q=0.1", "text/html"],
    ["*/*;q=0.8, text/html;q=0.9", "text/html"],
    ["text/html;q=0, application/json;q=0", undefined],
    ["image/png", undefined],
    // Unreadable ranges and weights are ignored.
    ["text/html;q=1.5, application/json;q=0.1", "application/json"],
    ["text/html;q=0.0001, application/json;q=0.1", "application/json"],
    ["text/html;q=, application/json;q=0.1", "application/json"],
    ["*/html, application/json;q=0.1", "application/json"],
    ["html, /, text/, application/json;q=0.1", "application/json"],
  ];
  for (const [accept, expected] of table)
    assert.equal(preferredMediaType(accept, OFFERED), expected, `Accept: ${JSON.stringify(accept)}`);
});
