/**
 * The relative links of a Markdown page, and whether each resolves as GitHub renders it:
 * the path to a file or folder of the repository, and a `#fragment` to a heading of the
 * Markdown file it names (or of the page itself), slugged as GitHub slugs headings.
 * Links with a scheme (`https:`, `mailto:`) are not ours to check; links inside code are
 * not links.
 */
import { posix } from "node:path";

/** A file's text; "" for a folder or a file whose text is not needed; undefined when nothing is there. */
export type ReadTarget = (path: string) => string | undefined;

export interface LinkCheck {
  /** How many relative links the page holds. */
  checked: number;
  /** One line per link that does not resolve: `page:line: target: why`. */
  broken: string[];
}

/**
 * Checks the relative links of `page` (a path from the repository's top, with `/`). A link
 * to a path in `pending` is skipped while nothing is there: a page another step generates.
 */
export function checkLinks(page: string, read: ReadTarget, pending: ReadonlySet<string> = new Set()): LinkCheck {
  const text = read(page);
  if (text === undefined) throw new Error(`${page} does not exist`);
  const links = relativeLinks(text);
  const broken = links.flatMap(({ line, target }) => {
    const why = whyBroken(page, target, read, pending);
    return why === undefined ? [] : [`${page}:${line}: ${target}: ${why}`];
  });
  return { checked: links.length, broken };
}

function whyBroken(page: string, target: string, read: ReadTarget, pending: ReadonlySet<string>): string | undefined {
  const hash = target.indexOf("#");
  const pathPart = hash < 0 ? target : target.slice(0, hash);
  const fragment = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const path =
    pathPart === ""
      ? page
      : posix.normalize(pathPart.startsWith("/") ? pathPart.slice(1) : posix.join(posix.dirname(page), pathPart));
  const decoded = decodeURIComponent(path).replace(/(.)\/$/, "$1");
  if (decoded === ".." || decoded.startsWith("../")) return "it leads out of the repository";
  const text = read(decoded);
  if (text === undefined) return pending.has(decoded) ? undefined : `${decoded} does not exist`;
  if (fragment === undefined || fragment === "") return undefined;
  if (!decoded.endsWith(".md")) return "a fragment is checked only against a Markdown file's headings";
  return anchors(text).has(fragment) ? undefined : `${decoded} has no heading whose anchor is #${fragment}`;
}

/** The relative link targets of a Markdown text, with their line numbers (from 1). */
function relativeLinks(markdown: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  proseLines(markdown).forEach((text, index) => {
    if (text === undefined) return;
    const targets = [
      ...[...text.matchAll(INLINE_LINK)].map((m) => m[1]!),
      ...[...text.matchAll(REFERENCE_DEFINITION)].map((m) => m[1]!),
    ];
    for (const target of targets) if (!HAS_SCHEME.test(target)) found.push({ line: index + 1, target });
  });
  return found;
}

/** `[text](target "title")` and `![alt](target)`, the target possibly in `<…>`. */
const INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
/** `[label]: target`, a link reference definition. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Each line of the text as prose: undefined inside a fenced code block, and with inline
 * code blanked out (same length, so that nothing else moves), since neither holds links.
 */
function proseLines(markdown: string): (string | undefined)[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return undefined;
    }
    if (marker !== undefined) {
      fence = marker;
      return undefined;
    }
    return line.replace(/(`+)[\s\S]*?\1/g, (code) => " ".repeat(code.length));
  });
}

/** The anchors GitHub gives a Markdown text: one per heading, and explicit `id`/`name` attributes. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLinesKeepingCode(markdown)) {
    for (const m of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) result.add(m[1]!);
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    result.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return result;
}

/** Lines outside fenced code blocks, inline code kept: a heading's code is part of its anchor. */
function proseLinesKeepingCode(markdown: string): string[] {
  const lines = markdown.split("\n");
  return proseLines(markdown).flatMap((prose, i) => (prose === undefined ? [] : [lines[i]!]));
}

/**
 * A heading's anchor as GitHub makes it (github-slugger): the text as rendered (links as
 * their text, no code or emphasis marks, no HTML), lower-cased, every character but
 * letters, digits, `_`, `-` and spaces dropped, and each space made a `-`.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}
