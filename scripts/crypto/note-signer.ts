/**
 * A signed-note signer from an Ed25519 private key in a PKCS#8 PEM file, as keygen writes it: the log's key signs
 * checkpoints (type 0x01), a witness's cosigns them (type 0x04, COSIGNATURE_TYPE). The seed is the JWK's `d`.
 */
import { decodeBase64url } from "../../core/base64url.ts";
import { ED25519_TYPE, type NoteKeyType } from "../../core/tlog/note-keys.ts";
import { ed25519Signer, type NoteSigner } from "../../core/tlog/note-signature.ts";
import { loadPrivateKey } from "./profile-a.ts";

/** The signer named `name` with the key at `path`, or why that key cannot be used (for a `manifest-resolver:` line). */
export async function pemNoteSigner(
  path: string,
  name: string,
  type: NoteKeyType = ED25519_TYPE,
): Promise<NoteSigner | string> {
  const key = await loadPrivateKey(path);
  if (typeof key === "string") return key;
  const seed = decodeBase64url(key.export({ format: "jwk" }).d!)!;
  return (await ed25519Signer({ name, seed }, type))!;
}
