/**
 * `_keys.json` is history too (issue 37, defect 13): while it exists it closes the world,
 * and a manifest signed with a key it does not pin fails the build. A change that deletes
 * it opens the world again with a mere `keys/none-pinned` warning, and one that drops a
 * pin lets a manifest under that keyRef be signed by anyone's key. So, against the
 * revision:
 * - `history/keys-removed`: the file is not removed;
 * - `history/pin-removed`: a keyRef that manifests at the revision were signed under stays
 *   pinned (one no manifest used may go);
 * - `history/pin-changed` (a warning): a keyRef pinned to another key is a rotation,
 *   allowed but never silent; the pull request summary lists it first;
 * - `history/pin-added` (a warning): a keyRef pinned anew lets its key sign what the world
 *   resolves under it (and the build publishes it in the DID's document), so it is listed
 *   first too. Pinning where nothing was pinned closes the world, and is said nowhere.
 * A file unreadable at either end has its own errors, and its pins are unknown.
 */
import { quoted } from "../../core/excerpt.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";
import type { ResolverState } from "./resolver-state.ts";

/** A keyRef `now` pins to another key (SPKI, base64) than `before` did: none, for one pinned anew. */
interface KeyChange {
  keyRef: string;
  before: string | undefined;
  now: string;
}

/** The keyRefs `now` pins anew or to another key, in `now`'s order; none while `before` pinned nothing. */
export function keyChanges(before: ResolverState, now: ResolverState): KeyChange[] {
  // An unreadable file pins what nobody can tell: its own errors say so, and the summary lists nothing as new.
  if (before.keys === undefined || now.keys === undefined || before.keys.unreadable || now.keys.unreadable) return [];
  const changes: KeyChange[] = [];
  for (const [keyRef, is] of now.keys.keys) {
    const was = before.keys.keys.get(keyRef);
    if (was?.spki !== is.spki) changes.push({ keyRef, before: was?.spki, now: is.spki });
  }
  return changes;
}

/** The problems of the rules: errors at the revision's `_keys.json` or the one now, warnings at the pin now. */
export function keyPinProblems(before: ResolverState, now: ResolverState, revision: string): Diagnostic[] {
  const was = before.keys;
  if (was === undefined) return [];
  if (now.keys === undefined)
    return [
      diagnostic(
        "history/keys-removed",
        { file: was.file },
        `_keys.json pinned ${was.keys.size} signing key(s) at ${revision} and is gone now: without it any key a ` +
          `manifest embeds is accepted, so anyone could sign under your keyRefs; restore it as it was at ${revision}`,
      ),
    ];
  if (was.unreadable === true || now.keys.unreadable === true) return [];
  const problems: Diagnostic[] = [];
  for (const [keyRef, pin] of was.keys) {
    const signed = before.signedUnder.get(keyRef);
    if (now.keys.keys.has(keyRef) || signed === undefined) continue;
    problems.push(
      diagnostic(
        "history/pin-removed",
        { file: now.keys.file },
        `keyRef ${quoted(keyRef)} was pinned at ${pin.place} and is not now, though manifests at ${revision} were ` +
          `signed under it (${signed} for one): its copies would be checked against no pinned key; put the pin ` +
          `back (to rotate the key, pin the new one under the same keyRef)`,
      ),
    );
  }
  for (const { keyRef, before: old, now: pinned } of keyChanges(before, now)) {
    const at = {
      file: now.keys.file,
      pointer: `/${escapePointerToken(keyRef)}`,
      ...lineAndColumn(now.keys.keys.get(keyRef)!.place),
    };
    problems.push(
      old === undefined
        ? diagnostic(
            "history/pin-added",
            at,
            `keyRef ${quoted(keyRef)} is pinned anew, to ${quoted(pinned)}, and was not at ${revision}: ` +
              `make sure the key is yours, since manifests signed with it under ${quoted(keyRef)} are now published`,
          )
        : diagnostic(
            "history/pin-changed",
            at,
            `keyRef ${quoted(keyRef)} is pinned to another key than at ${revision} (${quoted(old)} then, ` +
              `${quoted(pinned)} now): a key rotation; make sure it is yours, since every manifest signed under ` +
              `${quoted(keyRef)} is now checked against the new key`,
          ),
    );
  }
  return problems;
}

/** The line and column of a pin's place, `file:line:col` (KeyPins). */
function lineAndColumn(place: string): { line?: number; column?: number } {
  const match = /:(\d+):(\d+)$/.exec(place);
  return match === null ? {} : { line: Number(match[1]), column: Number(match[2]) };
}
