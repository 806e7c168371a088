/**
 * Cloudflare Worker. With static assets (wrangler.jsonc), it runs before them for every
 * path and reads the build output through the ASSETS binding. For a registry past the
 * static-file limits, bind the Workers KV namespace the build's bulk files were loaded
 * into as UM_RECORDS (the descriptor's kv.binding), and it reads its records from there.
 */
import { KV_BINDING } from "../../descriptor.ts";
import { handleRequest } from "../../handler.ts";
import { KvRecords, type KvNamespace } from "../../kv-records.ts";
import { StaticRecords } from "../../static-records.ts";
import { staticLayerReader } from "../static-asset.ts";

export interface WorkerEnv {
  ASSETS?: { fetch(request: Request): Promise<Response> };
  [KV_BINDING]?: KvNamespace;
}

const staticRecords = new StaticRecords();
const kvRecords = new KvRecords();

export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    const kv = env[KV_BINDING];
    const assets = env.ASSETS;
    const records =
      kv !== undefined
        ? kvRecords.reading(kv)
        : staticRecords.reading(
            staticLayerReader(request.url, (asset) => {
              if (assets === undefined) throw new Error(`bind ASSETS (static assets) or ${KV_BINDING} (Workers KV)`);
              return assets.fetch(asset);
            }),
          );
    return handleRequest(request, records);
  },
};
