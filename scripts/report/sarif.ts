/**
 * Diagnostics as a SARIF 2.1.0 log (OASIS), the format GitHub code scanning reads
 * (github/codeql-action/upload-sarif): the rules that occur, each with its summary, why it
 * matters and a link to its section of docs/rules.md; one result per diagnostic, at its
 * file relative to the repository's root, and its line and column where known. Columns
 * count UTF-16 code units, as ours do and as SARIF's default `columnKind` says.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { RULES, ruleAnchor, type RuleId } from "../../core/rules/index.ts";
import { printable, type Diagnostic } from "./diagnostics.ts";
import { messageText } from "./text.ts";

/** The tool that found the problems, and the folder their files' URIs are relative to. */
interface SarifContext {
  version: string;
  /** The tool's home page (package.json `homepage`), whose docs/rules.md documents each rule. */
  homepage: string;
  /** The repository's root folder. */
  root: string;
}

export function sarifLog(diagnostics: readonly Diagnostic[], { version, homepage, root }: SarifContext) {
  const rules = [...new Set(diagnostics.map((d) => d.rule))];
  const ruleIndex = new Map(rules.map((id, i) => [id, i]));
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "manifest-resolver",
            version,
            informationUri: homepage,
            rules: rules.map((id) => ruleDescriptor(id, homepage)),
          },
        },
        results: diagnostics.map((d) => ({
          ruleId: d.rule,
          ruleIndex: ruleIndex.get(d.rule)!,
          level: d.severity,
          message: { text: printable(messageText(d)) },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(d.file, root) },
                ...(d.line !== undefined && { region: { startLine: d.line, startColumn: d.column ?? 1 } }),
              },
            },
          ],
        })),
      },
    ],
  };
}

/** A rule as SARIF's `reportingDescriptor`; code scanning shows `help` beside each result. */
function ruleDescriptor(id: RuleId, homepage: string) {
  const rule = RULES[id];
  return {
    id,
    shortDescription: { text: rule.summary },
    fullDescription: { text: rule.why },
    help: { text: rule.fix },
    helpUri: `${homepage}/blob/main/docs/rules.md#${ruleAnchor(id)}`,
    defaultConfiguration: { level: rule.severity },
  };
}

/**
 * `file` (as diagnostics name it: relative to the working folder) as a URI reference
 * relative to `root`, with / between segments and each segment percent-encoded; a file
 * outside `root` as an absolute file: URI.
 */
export function artifactUri(file: string, root: string): string {
  const path = resolve(file);
  const inRoot = relative(root, path);
  if (inRoot === ".." || inRoot.startsWith(`..${sep}`) || isAbsolute(inRoot)) return pathToFileURL(path).href;
  return inRoot.split(sep).map(encodeURIComponent).join("/");
}
