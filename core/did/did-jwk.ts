/**
 * did:jwk for Ed25519 (did:jwk §2): `did:jwk:` and the base64url of a JWK's UTF-8 JSON,
 * here an OKP key on Ed25519 (RFC 8037) whose `x` is the 32-byte key. Other members are
 * allowed; a private `d` is refused, as a DID must never carry one. The DID's one
 * verification method is `#0`.
 */
import { decodeBase64url, decodeUtf8 } from "../base64url.ts";
import { parseJson } from "../json/strict-json.ts";
import { ed25519FromJwk } from "./ed25519-key-formats.ts";
import type { DidUrl, LocalKey } from "./local-key.ts";

/** A JWK is flat but for arrays of strings (`key_ops`, `x5c`); the id is any bytes a manifest's keyRef holds. */
const JWK_SHAPE = { maxDepth: 4, maxArrayItems: 1000 };

export function didJwkEd25519({ id, fragment }: DidUrl): LocalKey {
  const malformed = (reason: string): LocalKey => ({ kind: "malformed", method: "jwk", reason });
  const bytes = decodeBase64url(id);
  const text = bytes === undefined ? undefined : decodeUtf8(bytes);
  if (text === undefined) return malformed("its JWK is not unpadded base64url of UTF-8 text");
  const parsed = parseJson(text, JWK_SHAPE);
  const key = ed25519FromJwk(parsed.ok ? parsed.value : undefined);
  if ("fault" in key) return malformed(`its JWK ${key.fault}`);
  if (fragment !== undefined && fragment !== "0")
    return malformed(`the fragment names ${JSON.stringify(fragment)}, not the DID's one key "0"`);
  return { kind: "resolved", publicKey: key.publicKey };
}
