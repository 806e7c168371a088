/**
 * Cloudflare Worker over Workers Static Assets. `wrangler.toml` runs this worker before
 * assets for every path, and the build output is read through the `ASSETS` binding.
 */
import { handleRequest } from "../../handler.ts";
import { StaticRecords } from "../../static-records.ts";
import { staticLayerReader } from "../static-asset.ts";

export interface WorkerEnv {
  ASSETS: { fetch(request: Request): Promise<Response> };
}

const records = new StaticRecords();

export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    return handleRequest(request, records.reading(staticLayerReader(request.url, (asset) => env.ASSETS.fetch(asset))));
  },
};
