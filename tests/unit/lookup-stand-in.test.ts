/**
 * The lookup page's stand-in (lookup-page/stand-in.ts) on its own: when it applies, and that it moves only what is
 * under the configured resolver's base URL, on a path boundary, reading each answer's URL back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { standInFor, standingIn } from "../../lookup-page/stand-in.ts";

/** A page whose meta tags say `metas`, as standInFor reads them. */
const page = (metas: Record<string, string>) => (name: string) => metas[name] ?? "";

const LOCAL = "http://127.0.0.1:8787";

describe("the lookup page's stand-in", () => {
  it("applies to a lookup of the page's own resolver, for the configured URL as a URL writes it", () => {
    const served = page({
      "manifest-resolver": LOCAL,
      "manifest-resolver-stands-in-for": "https://Manifests.Example.org:443/",
    });
    assert.deepEqual(standInFor(LOCAL, served), { for: "https://manifests.example.org", at: LOCAL });
  });

  it("applies to nothing else: another resolver, no configured URL, one that is no URL, or the same URL", () => {
    const configured = { "manifest-resolver": LOCAL, "manifest-resolver-stands-in-for": "https://m.example" };
    assert.equal(standInFor("http://localhost:8787", page(configured)), undefined);
    assert.equal(standInFor(LOCAL, page({ "manifest-resolver": LOCAL })), undefined);
    assert.equal(standInFor(LOCAL, page({ ...configured, "manifest-resolver-stands-in-for": "" })), undefined);
    assert.equal(standInFor(LOCAL, page({ ...configured, "manifest-resolver-stands-in-for": "not a url" })), undefined);
    assert.equal(standInFor(LOCAL, page({ ...configured, "manifest-resolver-stands-in-for": `${LOCAL}/` })), undefined);
  });

  it("asks the local server for what is under the base, on a path boundary, and reads the answer's URL back", async () => {
    const asked: string[] = [];
    const fetch = standingIn(
      async (url) => {
        asked.push(url);
        const response = new Response("{}");
        // Where the browser says the answer came from: the URL asked (configurable, as the prototype getter it stands for).
        return Object.defineProperty(response, "url", { value: url, configurable: true });
      },
      { for: "https://m.example/resolver", at: LOCAL },
    );
    const urls = [
      "https://m.example/resolver/urn%3Ax",
      "https://m.example/resolver",
      "https://m.example/resolver?x",
      "https://m.example/resolver-other/did.json",
      "https://m.example.evil/resolver/urn%3Ax",
      "https://other.example/.well-known/did.json",
    ];
    const answered = await Promise.all(urls.map(async (url) => (await fetch(url, {})).url));
    assert.deepEqual(asked, [
      `${LOCAL}/urn%3Ax`,
      LOCAL,
      `${LOCAL}?x`,
      "https://m.example/resolver-other/did.json",
      "https://m.example.evil/resolver/urn%3Ax",
      "https://other.example/.well-known/did.json",
    ]);
    assert.deepEqual(answered, urls);
  });
});
