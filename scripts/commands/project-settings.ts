/**
 * The settings a command runs with: the repository's `manifest-resolver.json` (scripts/check/project-config.ts), the
 * environment over it (scripts/config.ts); each command applies its flags over both.
 */
import { ConfigError, settingsFromEnv, type Settings } from "../config.ts";
import { checkProjectConfig, type ProjectConfigCheck } from "../check/project-config.ts";
import { projectRoot } from "../read/content-root.ts";
import { formatDiagnostic } from "../report/text.ts";

/** The settings; a settings file with an error is a usage error naming it, its place and its rule. */
export function projectSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const checked = checkProjectConfig(projectRoot());
  const errors = checked.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new ConfigError(errors.map(formatDiagnostic).join("; "));
  return settingsFromEnv(env, checked.project);
}

/**
 * For `check`, which reports the file as one it checked: its problems, and the settings without it when it has an
 * error (the run fails on that error, and still checks the content).
 */
export function checkedProjectSettings(env: NodeJS.ProcessEnv = process.env): {
  settings: Settings;
  checked: ProjectConfigCheck;
} {
  const checked = checkProjectConfig(projectRoot());
  return { settings: settingsFromEnv(env, checked.project), checked };
}
