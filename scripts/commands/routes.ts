/**
 * `manifest-resolver revoke`, `redirect`, `suspend` and `reinstate`: safe edits of
 * `_routes.json`. The file must be valid before the edit and is validated again after it
 * (against the manifests too); entries keep their order and new ones go last; a UMID is
 * never listed twice; the file is replaced atomically, in its own indentation style. A
 * status change is dated strictly after the status it ends (the status cursor, which
 * core/status/status-document.ts derives from that date, must increase), and revocation is permanent
 * (EXT-OPT O2.3).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { closest } from "../closest.ts";
import { FILE_CONCURRENCY, mapConcurrent } from "../concurrency.ts";
import type { Settings } from "../config.ts";
import { projectSettings } from "./project-settings.ts";
import {
  displayPath,
  LIST_FILE_LIMIT,
  listContent,
  manifestByteLimit,
  readSourceText,
  ROUTES_FILE,
} from "../read/files.ts";
import { DEFAULT_STYLE, detectStyle, formatJson } from "../edit/json-file.ts";
import { writeFileAtomically } from "../store/atomic-write.ts";
import { withFileLock } from "../edit/file-lock.ts";
import { checkRoutesText, type RoutesFile } from "../check/routes.ts";
import { filePlace, placeOf } from "../read/source.ts";
import type { Place } from "../../core/json/source-map.ts";
import { diagnostic, type Diagnostic, hasErrors, printable } from "../report/diagnostics.ts";
import { shellWord } from "../report/fix-hints.ts";
import { formatDiagnostic } from "../report/text.ts";
import { excerpt } from "../../core/excerpt.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { instant } from "../../core/date-time.ts";
import { redirectLocationProblem } from "../../core/validate/redirect-location.ts";
import { schemaValidators } from "../validate/schema-validator.ts";
import { EXIT_FAILED, EXIT_OK, UsageError } from "../cli/command.ts";
import type { revoke, suspend, reinstate, redirect } from "./routes-declaration.ts";
import type { CommandRun } from "../cli/command.ts";

type Outcome = { changed: string; warning?: Diagnostic } | { unchanged: string } | { refused: string };

interface RoutesEdit {
  routes: Required<RoutesFile>;
  /** Where an entry for `umid` already is, as file:line:col, if it is listed in `list`. */
  listed(list: keyof RoutesFile, umid: string): { index: number; place: string } | undefined;
  /** Removes `umid`'s suspended or reinstated entry, if any: it is about to get another fate. */
  dropStatus(umid: string): void;
  /** Now, or if that is not later than the start of `umid`'s current status, just after it. */
  changeTime(umid: string): string;
  /** The manifest file that publishes `umid`, if any. */
  publishedBy(umid: string): string | undefined;
  /** The published UMIDs nearest to `umid`, with their files, to name when it is not one ("" if none). */
  nearestHint(umid: string): string;
  /** The warning for a status no relying party would learn: `umid`'s manifest has no statusRef. */
  unreachable(umid: string): Diagnostic | undefined;
}

export const runRevoke: CommandRun<typeof revoke> = (values, [umid]) =>
  editRoutes(values.content, umid, ({ routes, listed, publishedBy, nearestHint, dropStatus, changeTime }) => {
    const revoked = listed("revoked", umid);
    if (revoked !== undefined) return { unchanged: `${excerpt(umid)} is already revoked at ${revoked.place}` };
    const redirected = listed("redirects", umid);
    if (redirected !== undefined)
      return {
        refused: `${excerpt(umid)} is redirected at ${redirected.place}: remove the redirect before revoking it`,
      };
    if (publishedBy(umid) === undefined && !values.unpublished) {
      return {
        refused:
          `no manifest in the content folder publishes ` +
          `${excerpt(umid)}${nearestHint(umid)}. Nothing was revoked; to revoke it anyway ` +
          `(a UMID published elsewhere, or before), add --unpublished`,
      };
    }
    const revokedAt = changeTime(umid);
    dropStatus(umid);
    routes.revoked.push({ umid, revokedAt, ...reasonOf(values.reason) });
    const file = publishedBy(umid);
    return { changed: `revoked ${excerpt(umid)}${file === undefined ? "" : `; ${file} is no longer published`}` };
  });

export const runSuspend: CommandRun<typeof suspend> = (values, [umid]) =>
  editRoutes(
    values.content,
    umid,
    ({ routes, listed, publishedBy, nearestHint, dropStatus, changeTime, unreachable }) => {
      const suspended = listed("suspended", umid);
      if (suspended !== undefined) return { unchanged: `${excerpt(umid)} is already suspended at ${suspended.place}` };
      const revoked = listed("revoked", umid);
      if (revoked !== undefined)
        return { refused: `${excerpt(umid)} is revoked at ${revoked.place}, and a revoked UMID stays revoked` };
      if (publishedBy(umid) === undefined) {
        return {
          refused:
            `no manifest in the content folder publishes ${excerpt(umid)}, and only a ` +
            `published manifest can be suspended${nearestHint(umid)}`,
        };
      }
      const suspendedAt = changeTime(umid);
      dropStatus(umid);
      routes.suspended.push({ umid, suspendedAt, ...reasonOf(values.reason) });
      const warning = unreachable(umid);
      return { changed: `suspended ${excerpt(umid)}`, ...(warning && { warning }) };
    },
  );

export const runReinstate: CommandRun<typeof reinstate> = (values, [umid]) =>
  editRoutes(values.content, umid, ({ routes, listed, dropStatus, changeTime }) => {
    const revoked = listed("revoked", umid);
    if (revoked !== undefined)
      return {
        refused:
          `${excerpt(umid)} is revoked at ${revoked.place}: revocation is permanent, a ` +
          `revoked UMID cannot be reinstated`,
      };
    if (listed("suspended", umid) === undefined) return { unchanged: `${excerpt(umid)} is not suspended` };
    const reinstatedAt = changeTime(umid);
    dropStatus(umid);
    routes.reinstated.push({ umid, reinstatedAt });
    return { changed: `reinstated ${excerpt(umid)}` };
  });

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason === undefined ? {} : { reason };
}

export const runRedirect: CommandRun<typeof redirect> = (values, [umid, location]) => {
  // Read once: the location is judged against the resolver the edit is made for.
  const settings = projectSettings();
  const problem = redirectLocationProblem(location, settings.resolverUrl);
  if (problem !== undefined) throw new UsageError(`URL '${printable(excerpt(location))}' ${problem}`);
  return editRoutes(
    values.content,
    umid,
    ({ routes, listed, publishedBy, dropStatus }) => {
      const revoked = listed("revoked", umid);
      if (revoked !== undefined)
        return { refused: `${excerpt(umid)} is revoked at ${revoked.place}, and a revoked UMID stays revoked` };
      const file = publishedBy(umid);
      if (file !== undefined)
        return {
          refused: `${excerpt(umid)} is published by ${file}: delete that file first, or revoke the UMID instead`,
        };
      const existing = listed("redirects", umid);
      // A status of a manifest no longer here goes with it.
      dropStatus(umid);
      if (existing === undefined) {
        routes.redirects.push({ umid, location });
        return { changed: `redirected ${excerpt(umid)} to ${location}` };
      }
      const entry = routes.redirects[existing.index]!;
      if (entry.location === location) return { unchanged: `${excerpt(umid)} already redirects to ${location}` };
      const previous = entry.location;
      entry.location = location;
      return { changed: `${excerpt(umid)} now redirects to ${location} (was ${previous}, at ${existing.place})` };
    },
    settings,
  );
};

/** Applies `edit` to the _routes.json of the content folder `dir`, on behalf of `umid`. */
async function editRoutes(
  dir: string,
  umid: string,
  edit: (at: RoutesEdit) => Outcome,
  settings: Settings = projectSettings(),
): Promise<number> {
  const validators = schemaValidators(settings.contextUrl, settings.resolverUrl);
  const path = join(dir, ROUTES_FILE);
  const file = displayPath(path);

  if (!existsSync(dir))
    return fail([
      `manifest-resolver: no content folder ${displayPath(dir)}: run this in your ` +
        `repository, or name the folder with --content`,
    ]);
  const manifests = await manifestIds(dir, settings);
  // Read, edited and written back under the file's lock: a concurrent edit waits, then
  // sees this one.
  return withFileLock(path, settings.lockWaitMs, async () => {
    const read = readSourceText(path, LIST_FILE_LIMIT);
    if ("diagnostic" in read && !read.missing) return fail([formatDiagnostic(read.diagnostic)]);
    const text = "text" in read ? read.text : "{}";
    const before = checkRoutesText(file, text, validators);
    if (hasErrors(before.diagnostics))
      return fail([...before.diagnostics.map(formatDiagnostic), `${file} must be valid before it is edited.`]);

    const current = before.document;
    const routes = {
      ...current,
      redirects: current.redirects ?? [],
      revoked: current.revoked ?? [],
      suspended: current.suspended ?? [],
      reinstated: current.reinstated ?? [],
    };
    const withPlace = (umid: string) => `${excerpt(umid)} (${idPlace(manifests.get(umid)!)})`;
    // A UMID given in other letter case than a published one is almost surely that one, and
    // an edit of it would leave the one meant as it was: refused, whatever the edit, unless
    // _routes.json lists this spelling already.
    if (!manifests.has(umid) && !before.redirects.has(umid) && !before.statuses.has(umid)) {
      // Both ways: one lower-case form may have two upper-case ones (σ, ς: Σ), and the reverse.
      const meant = [...manifests.keys()].filter(
        (candidate) =>
          candidate !== umid &&
          (candidate.toLowerCase() === umid.toLowerCase() || candidate.toUpperCase() === umid.toUpperCase()),
      );
      if (meant.length > 0) {
        return fail([
          `manifest-resolver: no manifest in the content folder publishes ` +
            `${excerpt(umid)}; did you mean ${meant.map(withPlace).join(" or ")}? UMIDs ` +
            `differing only in letter case are different UMIDs. Nothing was changed`,
        ]);
      }
    }
    const outcome = edit({
      routes,
      listed: (list, umid) => {
        const index = routes[list].findIndex((entry) => entry.umid === umid);
        return index < 0 ? undefined : { index, place: placeOf(before.source, `/${list}/${index}/umid`) };
      },
      dropStatus: (umid) => {
        routes.suspended = routes.suspended.filter((entry) => entry.umid !== umid);
        routes.reinstated = routes.reinstated.filter((entry) => entry.umid !== umid);
      },
      changeTime: (umid) => {
        const status = before.statuses.get(umid);
        const since = Math.max(instant(status?.at) ?? -Infinity, instant(manifests.get(umid)?.issuedAt) ?? -Infinity);
        return new Date(Math.max(Date.now(), since + 1)).toISOString();
      },
      publishedBy: (umid) => {
        const manifest = manifests.get(umid);
        return manifest && idPlace(manifest);
      },
      nearestHint: (umid) => {
        const near = closest(umid, manifests.keys());
        return near.length === 0 ? "" : `; the nearest published: ${near.map(withPlace).join(", ")}`;
      },
      unreachable: (umid) => {
        const manifest = manifests.get(umid);
        if (manifest === undefined || manifest.statusRef) return undefined;
        const fix = `manifest-resolver sign ${shellWord(manifest.file)}${settings.resolverUrl === "" ? " --status-base URL" : ""}`;
        return diagnostic(
          "signature/status-ref-missing",
          { file: manifest.file, pointer: "/signature" },
          `has no statusRef, so relying parties that hold it never learn of this suspension; run ${fix}`,
          "warning",
        );
      },
    });
    if ("refused" in outcome) return fail([`manifest-resolver: ${outcome.refused}`]);
    if ("unchanged" in outcome) {
      console.log(printable(outcome.unchanged));
      return EXIT_OK;
    }

    // A list the file did not have is written only if the edit gave it an entry.
    const lists = Object.entries(routes).filter(
      ([name, list]) => !(Array.isArray(list) && list.length === 0 && !(name in current)),
    );
    const updated = formatJson(Object.fromEntries(lists), "text" in read ? detectStyle(read.text) : DEFAULT_STYLE);
    const after = checkRoutesText(file, updated, validators);
    if (hasErrors(after.diagnostics))
      return fail([...after.diagnostics.map(formatDiagnostic), `${file} was not changed.`]);
    await writeFileAtomically(path, updated);
    console.log(printable(`${outcome.changed} in ${file}`));
    if (outcome.warning !== undefined) console.error(formatDiagnostic(outcome.warning));
    return EXIT_OK;
  });
}

/** A manifest file that claims a UMID: where its @id is, when it was issued, and whether it has a statusRef. */
interface ManifestId {
  file: string;
  at: Place;
  issuedAt?: unknown;
  statusRef: boolean;
}

/**
 * Which manifest file claims each UMID, and when that manifest was issued: only each file's @id and issuedAt are
 * read.
 */
async function manifestIds(dir: string, settings: Settings): Promise<Map<string, ManifestId>> {
  const ids = new Map<string, ManifestId>();
  const sources = await mapConcurrent((await listContent(dir)).manifests, FILE_CONCURRENCY, async (name) => {
    const path = join(dir, name);
    const read = readSourceText(path, manifestByteLimit(settings.limits));
    return "text" in read ? { file: displayPath(path), text: read.text } : undefined;
  });
  for (const source of sources) {
    const parsed = source && parseJson(source.text, settings.limits);
    if (
      parsed?.ok &&
      isJsonObject(parsed.value) &&
      typeof parsed.value["@id"] === "string" &&
      !ids.has(parsed.value["@id"])
    ) {
      ids.set(parsed.value["@id"], {
        file: source!.file,
        at: parsed.source.place("/@id"),
        issuedAt: parsed.value.issuedAt,
        statusRef: isJsonObject(parsed.value.signature) && parsed.value.signature.statusRef !== undefined,
      });
    }
  }
  return ids;
}

function idPlace({ file, at }: ManifestId): string {
  return filePlace(file, at);
}

function fail(lines: string[]): number {
  for (const line of lines) console.error(printable(line));
  return EXIT_FAILED;
}
