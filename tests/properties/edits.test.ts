/**
 * The publisher's tools that read a file before they edit it, under mutated input (issue 37, defect 10): `revoke`,
 * `suspend`, `reinstate` and `redirect` over a damaged `_routes.json`, `sign` over a damaged manifest, and `sign
 * --status-list`'s allocation over a damaged `_status/` file. Each edits the file into one `check` accepts, or refuses (exit 1, or 2 for a usage error,
 * with its problems by rule) and leaves every file as it was: nothing half-written, and nothing thrown.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { checkManifestText, type ManifestContext } from "../../scripts/check/manifest-check.ts";
import { checkRoutesText } from "../../scripts/check/routes.ts";
import { NO_OPT_INS } from "../../scripts/check/unsigned.ts";
import { runCommand } from "../../scripts/cli/dispatch.ts";
import { cliCommand } from "../support/cli-command.ts";
import { settingsFromEnv } from "../../scripts/config.ts";
import { allocateStatusEntries } from "../../scripts/edit/status-allocation.ts";
import { schemaValidators } from "../../scripts/validate/schema-validator.ts";
import {
  FIXTURE_KEY_REF,
  FIXTURE_RESOLVER_URL,
  manifestFor,
  newKey,
  pinning,
  signed,
} from "../support/fixture-content.ts";
import { assertRuleIds, documentText, excerpt, holds, quietly } from "../support/properties.ts";

const redirect = await cliCommand("redirect");
const reinstate = await cliCommand("reinstate");
const revoke = await cliCommand("revoke");
const suspend = await cliCommand("suspend");
const sign = await cliCommand("sign");

const scratch = mkdtempSync(join(tmpdir(), "um-property-edits-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const content = join(scratch, "content");
const ROUTES = {
  redirects: [{ umid: "urn:edit:moved", location: "https://elsewhere.example/moved" }],
  revoked: [{ umid: "urn:edit:gone", revokedAt: "2026-01-01T00:00:00Z" }],
  suspended: [{ umid: "urn:edit:held", suspendedAt: "2026-02-01T00:00:00Z" }],
};

/** Every file of the content folder, by its path there. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else files.set(`${prefix}${entry.name}`, readFileSync(join(dir, entry.name), "utf8"));
  };
  walk(content, "");
  return files;
}

const key = newKey();
const keyFile = join(scratch, "signing.pem");

before(() => {
  mkdirSync(content);
  writeFileSync(keyFile, key.export({ format: "pem", type: "pkcs8" }));
  writeFileSync(join(content, "_keys.json"), JSON.stringify(pinning(key)));
  for (const umid of ["urn:edit:a", "urn:edit:held"])
    writeFileSync(join(content, `${umid.slice(9)}.json`), JSON.stringify(signed(manifestFor(umid), key), null, 2));
});

describe("properties: the publisher's tools over the files they edit", () => {
  it("revoke, suspend, reinstate and redirect edit a damaged _routes.json into a valid one, or leave it", async () => {
    const validators = schemaValidators(settingsFromEnv({}).contextUrl, "");
    const path = join(content, "_routes.json");
    const edits = [
      () => runCommand(revoke, ["urn:edit:a", "--content", content]),
      () => runCommand(suspend, ["urn:edit:a", "--reason", "review", "--content", content]),
      () => runCommand(reinstate, ["urn:edit:held", "--content", content]),
      () => runCommand(redirect, ["urn:edit:b", "https://elsewhere.example/b", "--content", content]),
    ];
    writeFileSync(path, JSON.stringify(ROUTES, null, 2));
    assert.equal(await quietly(edits[0]!), 0);
    await holds(
      "_routes.json edits",
      fc.asyncProperty(documentText(ROUTES), fc.nat(edits.length - 1), async (text, which) => {
        writeFileSync(path, text);
        const before = snapshot();
        const status = await quietly(edits[which]!);
        if (status === 0) {
          const edited = readFileSync(path, "utf8");
          const errors = checkRoutesText("_routes.json", edited, validators).diagnostics.filter(
            (d) => d.severity === "error",
          );
          assert.deepEqual(errors, [], `${excerpt(text)} edited into ${excerpt(edited)}`);
        } else {
          assert.ok(status === 1 || status === 2, `exit ${status}: ${excerpt(text)}`);
          assert.deepEqual(snapshot(), before, `exit ${status} changed the content: ${excerpt(text)}`);
        }
      }),
      150,
    );
  });

  it("sign --status-list allocates over a damaged _status/ file, or refuses by rule and writes nothing", async () => {
    const allocate = (umids: string[]) =>
      allocateStatusEntries(content, umids, {
        statusBase: FIXTURE_RESOLVER_URL,
        resolverUrl: FIXTURE_RESOLVER_URL,
        lockWaitMs: 5_000,
      });
    assert.ok((await allocate(["urn:edit:a", "urn:edit:held"])) instanceof Map);
    const folder = join(content, "_status");
    const [name] = readdirSync(folder);
    const honest = readFileSync(join(folder, name!), "utf8");
    await holds(
      "_status/ allocation",
      fc.asyncProperty(documentText(JSON.parse(honest)), async (text) => {
        writeFileSync(join(folder, name!), text);
        const before = snapshot();
        const allocated = await allocate(["urn:edit:a", "urn:edit:new"]);
        if (!(allocated instanceof Map)) {
          assert.ok(allocated.diagnostics.length > 0, excerpt(text));
          assertRuleIds(allocated.diagnostics, text);
          assert.deepEqual(snapshot(), before, `a refused allocation changed the content: ${excerpt(text)}`);
        }
        writeFileSync(join(folder, name!), honest);
        for (const file of readdirSync(folder)) if (file !== name) rmSync(join(folder, file));
      }),
      150,
    );
  });

  it("sign signs a damaged manifest into one check accepts, or refuses it and leaves it", async () => {
    const file = join(content, "unsigned.json");
    const unsigned = manifestFor("urn:edit:unsigned");
    const manifestContext: ManifestContext = {
      settings: settingsFromEnv({}),
      now: new Date("2026-06-01T00:00:00Z"),
      strict: false,
      pins: undefined,
      unsigned: NO_OPT_INS,
    };
    const signFile = () =>
      runCommand(sign, [file, "--key", keyFile, "--key-ref", FIXTURE_KEY_REF, "--content", content]);
    writeFileSync(file, JSON.stringify(unsigned, null, 2));
    assert.equal(await quietly(signFile), 0);
    await holds(
      "sign",
      fc.asyncProperty(documentText(unsigned), async (text) => {
        writeFileSync(file, text);
        const before = snapshot();
        const status = await quietly(signFile);
        if (status === 0) {
          const edited = readFileSync(file, "utf8");
          const errors = checkManifestText("unsigned.json", edited, manifestContext).diagnostics.filter(
            (d) => d.severity === "error",
          );
          assert.deepEqual(errors, [], `${excerpt(text)} signed into ${excerpt(edited)}`);
        } else {
          assert.ok(status === 1 || status === 2, `exit ${status}: ${excerpt(text)}`);
          assert.deepEqual(snapshot(), before, `exit ${status} changed the content: ${excerpt(text)}`);
        }
      }),
      100,
    );
    rmSync(file);
  });
});
