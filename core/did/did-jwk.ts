/**
 * did:jwk for Ed25519 (did:jwk §2): `did:jwk:` and the base64url of a JWK's UTF-8 JSON,
 * here an OKP key on Ed25519 (RFC 8037) whose `x` is the 32-byte key. Other members are
 * allowed; a private `d` is refused, as a DID must never carry one. The DID's one
 * verification method is `#0`.
 */
import { decodeBase64url, decodeUtf8 } from "../base64url.ts";
import { parseJson, isJsonObject } from "../json/strict-json.ts";
import type { DidUrl, LocalKey } from "./local-key.ts";

export function didJwkEd25519({ id, fragment }: DidUrl): LocalKey {
  const malformed = (reason: string): LocalKey => ({ kind: "malformed", method: "jwk", reason });
  const bytes = decodeBase64url(id);
  const text = bytes === undefined ? undefined : decodeUtf8(bytes);
  if (text === undefined) return malformed("its JWK is not unpadded base64url of UTF-8 text");
  const parsed = parseJson(text);
  const jwk = parsed.ok ? parsed.value : undefined;
  if (!isJsonObject(jwk)) return malformed("its JWK is not a JSON object");
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") return malformed('its JWK is not "kty": "OKP", "crv": "Ed25519"');
  if (Object.hasOwn(jwk, "d")) return malformed('its JWK carries a private key ("d")');
  const publicKey = typeof jwk.x === "string" ? decodeBase64url(jwk.x) : undefined;
  if (publicKey === undefined || publicKey.length !== 32)
    return malformed('its JWK\'s "x" is not the unpadded base64url of 32 bytes');
  if (fragment !== undefined && fragment !== "0")
    return malformed(`the fragment names ${JSON.stringify(fragment)}, not the DID's one key "0"`);
  return { kind: "resolved", publicKey };
}
