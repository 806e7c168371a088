/**
 * One table of contract cases, answered over real HTTP by the same handler in all three
 * runtimes it ships to, from one build of content this repository has never seen.
 */
import { after, before, describe, it } from "node:test";
import { makeFixture } from "../support/fixture-content.ts";
import { rawRequest } from "../support/http.ts";
import type { Started } from "../support/processes.ts";
import { RUNTIMES } from "../support/runtimes.ts";
import { assertAnswers, contractCases } from "./cases.ts";

const fixture = makeFixture();
const cases = contractCases(fixture);
after(() => fixture.cleanup());

for (const runtime of RUNTIMES) {
  describe(runtime.name, () => {
    let server: Started;
    before(async () => {
      server = await runtime.start(fixture.dist);
    });
    after(() => server?.stop());

    for (const c of cases) {
      it(`${c.method} ${c.path.length > 70 ? `${c.path.slice(0, 70)}…` : c.path} → ${c.name}`, async () => {
        assertAnswers(c, await rawRequest(server.url, c.method, c.path, c.requestHeaders));
      });
    }
  });
}
