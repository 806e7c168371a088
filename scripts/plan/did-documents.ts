/**
 * The did:web documents the build publishes (check/did-web-documents.ts), as routes (routes.ts): each document as
 * check made it from the pinned keys, by the code `keygen` prints a verification method with, and read back with the
 * relying party's reader, at the request path its DID maps to. The same documents, the same bytes.
 */
import { utf8 } from "../../core/base64url.ts";
import { DID_DOCUMENT } from "../../core/served-kinds.ts";
import type { DidWebDocument } from "../check/did-web-documents.ts";
import type { Route } from "./routes.ts";

export function didDocumentRoutes(documents: readonly DidWebDocument[]): Route[] {
  return documents.map(({ path, body }) => ({ path, bytes: utf8(body), served: DID_DOCUMENT }));
}
