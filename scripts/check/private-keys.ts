/**
 * A private key anywhere under the content root fails the build. The content folder is
 * committed, so a key found there is already in the repository's history: removing the
 * file is not enough, the key must be replaced (and its keyRef re-pinned). PEM armour is
 * what keygen, OpenSSL and ssh-keygen write, encrypted or not, whatever the algorithm; it
 * is found inside JSON strings too, where a manifest would publish it to the world.
 */
import { excerpt } from "../../core/excerpt.ts";
import { lineColumn } from "../../core/json/source-map.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

const PEM_PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

/** Where `text` holds PEM armour of a private key, and the armour's line; undefined when it holds none. */
export function privateKeyArmour(text: string): { index: number; armour: string } | undefined {
  // indexOf first: it is far cheaper than the expression, and almost never matches.
  if (text.indexOf("PRIVATE KEY-----") === -1) return undefined;
  const match = PEM_PRIVATE_KEY.exec(text);
  return match === null ? undefined : { index: match.index, armour: match[0] };
}

/** The diagnostic for a private key in `text`, if it holds one. */
export function privateKeyProblem(file: string, text: string): Diagnostic | undefined {
  const found = privateKeyArmour(text);
  if (found === undefined) return undefined;
  return diagnostic(
    "content/private-key",
    { file, ...lineColumn(text, found.index) },
    `holds a private key (${excerpt(found.armour)}): remove it from the content folder ` +
      `and rotate it (make a new key, pin and sign with it): it is in the git history ` +
      `now, readable by anyone with the repository`,
  );
}
