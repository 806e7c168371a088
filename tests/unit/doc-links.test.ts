/**
 * Every relative link of README.md, CHANGELOG.md and docs/*.md resolves on GitHub: the
 * file or folder it names exists, and its `#fragment` is the anchor of a heading there.
 * Then the checker itself, on pages made here: it must find each kind of broken link, or
 * the first test would pass whatever the pages say.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { anchors, checkLinks, githubSlug, type ReadTarget } from "../support/markdown-links.ts";
import { ROOT } from "../support/paths.ts";

const fromRepository: ReadTarget = (path) => {
  const file = join(ROOT, path);
  if (!existsSync(file)) return undefined;
  return statSync(file).isFile() && path.endsWith(".md") ? readFileSync(file, "utf8") : "";
};

const PAGES = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

// docs/rules.md is generated from the rule registry by its own step; until it is there,
// links to it are skipped (once it exists they are checked like any other, anchors too).
const GENERATED = new Set(["docs/rules.md"]);

test("every relative link in README.md, CHANGELOG.md and docs/ resolves, anchors included", () => {
  assert.ok(PAGES.includes("docs/architecture.md"), PAGES.join(", "));
  const checks = PAGES.map((page) => checkLinks(page, fromRepository, GENERATED));
  assert.ok(
    checks.every(({ checked }) => checked > 0),
    "every page links to another",
  );
  assert.deepEqual(
    checks.flatMap(({ broken }) => broken),
    [],
  );
});

test("a missing file, a missing anchor, a link out of the repository are broken; code holds no links", () => {
  const pages: Record<string, string> = {
    "README.md": [
      "# Title",
      "See [the guide](docs/guide.md#set-up), [gone](docs/gone.md), [out](../outside.md).",
      "Also [wrong anchor](docs/guide.md#tear-down) and [here](#title), [there](#nowhere).",
      "`[not a link](docs/none.md)` and [absolute](https://example.org/x.md), [folder](docs/).",
      "```",
      "[in a fence](docs/none.md)",
      "```",
      "[ref]: docs/missing.md",
      "[pending](docs/rules.md#some-rule)",
    ].join("\n"),
    "docs/guide.md": "# Guide\n\n## Set up\n",
    docs: "",
  };
  const read: ReadTarget = (path) => pages[path];
  const { checked, broken } = checkLinks("README.md", read, GENERATED);
  assert.equal(checked, 9);
  assert.deepEqual(broken, [
    "README.md:2: docs/gone.md: docs/gone.md does not exist",
    "README.md:2: ../outside.md: it leads out of the repository",
    "README.md:3: docs/guide.md#tear-down: docs/guide.md has no heading whose anchor is #tear-down",
    "README.md:3: #nowhere: README.md has no heading whose anchor is #nowhere",
    "README.md:8: docs/missing.md: docs/missing.md does not exist",
  ]);
  // A generated page is skipped only while it is absent.
  pages["docs/rules.md"] = "# Rules\n";
  assert.deepEqual(checkLinks("README.md", read, GENERATED).broken.slice(-1), [
    "README.md:9: docs/rules.md#some-rule: docs/rules.md has no heading whose anchor is #some-rule",
  ]);
});

test("anchors are GitHub's slugs of the headings", () => {
  assert.equal(githubSlug("Editing `_routes.json`"), "editing-_routesjson");
  assert.equal(githubSlug("History (`--base`)"), "history---base");
  assert.equal(githubSlug("What a receipt says"), "what-a-receipt-says");
  assert.equal(githubSlug("Pinned keys: `_keys.json`"), "pinned-keys-_keysjson");
  assert.equal(githubSlug("[Linked](x.md) **bold** heading"), "linked-bold-heading");
  assert.deepEqual(
    [...anchors('# A\n## A\n```\n# Not a heading\n```\n### A #\n<a id="custom"></a>\n')],
    ["a", "a-1", "a-2", "custom"],
  );
});
