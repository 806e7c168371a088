/**
 * `manifest-resolver.json` is history as well (the brief's third rule for trust state): its resolverUrl is what the
 * gate holds statusRefs to, its statusListKey the one key the build signs status lists with. A change of either, or
 * of what `sign` writes (signingKeyRef, statusLists) or a new log's name (logOrigin), is allowed but never silent:
 * `history/settings-changed`, a warning at the member now (or at the file, for one removed). keysDir names a folder
 * on each publisher's machine and decides nothing relying parties see: it is not compared. A file that cannot be
 * read at either end has its own errors (now) or compares as nothing (at the revision).
 */
import { realpathSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { decodeUtf8 } from "../../core/base64url.ts";
import { excerpt } from "../../core/excerpt.ts";
import { isJsonObject, parseJson } from "../../core/json/strict-json.ts";
import { CONFIG_FILE, type ProjectConfig } from "../config.ts";
import { LIST_FILE_SHAPE } from "../read/files.ts";
import { placed, type SourceFile } from "../read/source.ts";
import type { Diagnostic } from "../report/diagnostics.ts";
import { validateConfig } from "../validate/schema-validator.ts";
import { readFilesAt, type Revision } from "./git-revision.ts";

/** The members compared, and what each decides, for the message. */
const DECIDES: Partial<Record<keyof ProjectConfig, string>> = {
  resolverUrl: "the resolver statusRefs are held to and the lookup page asks",
  signingKeyRef: "the keyRef sign signs under",
  statusLists: "whether sign gives statusRefs into status lists",
  statusListKey: "the one key the build signs status lists with, which relying parties pin",
  logOrigin: "a new log's name",
};

/**
 * The settings file at `revision` (`{}` where it is not there or not readable) against now (`source`: where its
 * members are; without a map for a file that is gone).
 */
export function settingsProblems(
  before: ProjectConfig,
  now: { config: ProjectConfig; source: SourceFile },
  revision: string,
): Diagnostic[] {
  const shown = (value: unknown) => (value === undefined ? "unset" : excerpt(JSON.stringify(value)));
  return Object.entries(DECIDES).flatMap(([member, decides]) => {
    const was = before[member as keyof ProjectConfig];
    const is = now.config[member as keyof ProjectConfig];
    if (was === is) return [];
    const pointer = is === undefined ? "" : `/${member}`;
    return [
      placed(
        now.source,
        pointer,
        "history/settings-changed",
        `${member} is ${shown(is)} now and was ${shown(was)} at ${revision}: it decides ${decides}`,
      ),
    ];
  });
}

/**
 * The settings file of the project whose top is `root` as it was at `revision`: `{}` if not there or not valid, or
 * if `root` is no folder of the revision's repository (a content folder in a repository of its own, checked from
 * outside it).
 */
export async function settingsAt(revision: Revision, root: string): Promise<ProjectConfig> {
  const folder = relative(realpathSync(revision.top), realpathSync(root)).split(sep).join("/");
  if (folder === ".." || folder.startsWith("../") || isAbsolute(folder)) return {};
  const bytes = (await readFilesAt({ ...revision, folder }, [CONFIG_FILE])).get(CONFIG_FILE);
  const text = bytes === undefined ? undefined : decodeUtf8(bytes);
  const parsed = text === undefined ? undefined : parseJson(text, LIST_FILE_SHAPE);
  if (!parsed?.ok || !isJsonObject(parsed.value) || validateConfig(parsed.value).length > 0) return {};
  return parsed.value as ProjectConfig;
}
