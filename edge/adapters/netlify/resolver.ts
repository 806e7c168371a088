/**
 * Netlify Edge Function (Deno). `netlify.toml` routes every path and method here; the
 * build output is the publish directory, read through `context.next` with a rewritten
 * request so that no second request re-enters this function.
 */
import { handleRequest } from "../../handler.ts";
import { StaticRecords } from "../../static-records.ts";
import { staticLayerReader } from "../static-asset.ts";

/** The part of Netlify's `Context` this function uses. */
export interface NetlifyContext {
  next(request: Request): Promise<Response>;
}

const records = new StaticRecords();

export default (request: Request, context: NetlifyContext): Promise<Response> =>
  handleRequest(request, records.reading(staticLayerReader(request.url, (asset) => context.next(asset))));
