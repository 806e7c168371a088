/**
 * One table of contract cases, answered over real HTTP by the same handler in all three
 * runtimes it ships to, from one build of content this repository has never seen; and a
 * few of a build whose content keeps no transparency log.
 */
import { after, before, describe, it } from "node:test";
import { makeFixture, makeUnloggedFixture } from "../support/fixture-content.ts";
import { rawRequest } from "../support/http.ts";
import type { Started } from "../support/processes.ts";
import { RUNTIMES } from "../support/runtimes.ts";
import { assertAnswers, type ContractCase, contractCases, unloggedCases } from "./cases.ts";

const fixture = makeFixture();
const unlogged = makeUnloggedFixture();
const tables: [string, string, ContractCase[]][] = [
  ["", fixture.dist, contractCases(fixture)],
  ["without a log: ", unlogged.dist, unloggedCases(unlogged.umid, unlogged.manifest)],
];
after(() => {
  fixture.cleanup();
  unlogged.cleanup();
});

for (const runtime of RUNTIMES) {
  for (const [label, dist, cases] of tables) {
    describe(`${label}${runtime.name}`, () => {
      let server: Started;
      before(async () => {
        server = await runtime.start(dist);
      });
      after(() => server?.stop());

      for (const c of cases) {
        it(`${c.method} ${c.path.length > 70 ? `${c.path.slice(0, 70)}…` : c.path} → ${c.name}`, async () => {
          await assertAnswers(c, await rawRequest(server.url, c.method, c.path, c.requestHeaders));
        });
      }
    });
  }
}
