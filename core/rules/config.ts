/**
 * Rules of the project's settings file, `manifest-resolver.json` (scripts/check/project-config.ts): every command reads
 * it, and `check` reports it as one of the files it checked.
 */
import type { Rule } from "./rule.ts";

export const CONFIG_RULES = {
  "config/secret": {
    severity: "error",
    summary: "manifest-resolver.json holds a private key",
    why:
      "The settings file is committed with the repository: a private key in it is readable by anyone who can " +
      "read the repository, its forks and its history, and can sign manifests or checkpoints in your name.",
    source: "manifest-resolver (docs/security.md)",
    fix:
      "Remove the key from the file and rotate it (keygen makes a new one in the keys folder, outside the " +
      "repository): it is in the git history now. The file names only the folder the keys are in (keysDir).",
  },
  "config/keys-in-repository": {
    severity: "error",
    summary: "keysDir names a folder inside the repository",
    why:
      "Private keys written there are one `git add` away from being published with the repository, and a key " +
      "that was ever committed has to be replaced.",
    source: "manifest-resolver (docs/security.md)",
    fix: 'Name a folder outside the repository, such as "~/.manifest-keys/<project>", and move any key there.',
  },
  "config/value": {
    severity: "error",
    summary: "a setting in manifest-resolver.json has a value no command can use",
    why:
      "Every command takes its settings from this file: a resolver URL a client cannot fetch from, or a log " +
      "name a signed note cannot carry, would be written into every manifest signed or every checkpoint made.",
    source: "manifest-resolver (scripts/config.ts)",
    fix: "Correct the value as the message says, or remove the member to use its default.",
    example: '{ "resolverUrl": "https://resolver.example" }',
  },
} as const satisfies Record<string, Rule>;
