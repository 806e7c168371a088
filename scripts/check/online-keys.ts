/**
 * `check --online`: each did:web keyRef `_keys.json` pins is resolved as a relying party
 * resolves it (core/did/did-web.ts), and its DID document must list the pinned key under
 * assertionMethod. A document the build publishes itself (its host is UM_RESOLVER_URL's)
 * is made from the pins, so it is not fetched. Opt-in: the gate needs no network.
 */
import type { Fetch } from "../../core/client/fetch-following.ts";
import { spkiPublicKey, type KeyPins } from "../../core/crypto/profile-a.ts";
import { resolveDidWebKey } from "../../core/did/did-web.ts";
import { didWebDocumentUrl } from "../../core/did/did-web-url.ts";
import { escapePointerToken } from "../../core/json/pointer.ts";
import { diagnostic, type Diagnostic } from "../report/diagnostics.ts";

const TIMEOUT_MS = 10_000;

export async function onlineKeyProblems(
  pins: KeyPins | undefined,
  resolverUrl: string,
  now: Date,
  fetch: Fetch,
): Promise<Diagnostic[]> {
  if (pins === undefined) return [];
  const ownHost = URL.canParse(resolverUrl) ? new URL(resolverUrl).host : undefined;
  const checked = [...pins.keys].filter(([keyRef]) => {
    const located = didWebDocumentUrl(keyRef.split("#")[0]!);
    return "url" in located && new URL(located.url).host !== ownHost;
  });
  const transport = { fetch, timeoutMs: TIMEOUT_MS };
  const problems = await Promise.all(
    checked.map(async ([keyRef, pin]) => {
      const where = {
        file: pins.file,
        pointer: `/${escapePointerToken(keyRef)}`,
        ...(pin.line !== undefined && { line: pin.line, column: pin.column }),
      };
      const remote = await resolveDidWebKey(keyRef, { transport, cache: undefined, now: now.getTime() });
      if ("fault" in remote)
        return remote.fault === "unreachable" || remote.fault === "timeout"
          ? diagnostic("keys/did-web-unreachable", where, remote.reason)
          : diagnostic("keys/did-web-mismatch", where, remote.reason);
      const pinned = spkiPublicKey(pin.spki);
      return pinned !== undefined && Buffer.from(pinned).equals(remote.publicKey)
        ? undefined
        : diagnostic(
            "keys/did-web-mismatch",
            where,
            `${remote.documentUrl} lists another key for this keyRef than the one pinned here`,
          );
    }),
  );
  return problems.filter((p) => p !== undefined);
}
