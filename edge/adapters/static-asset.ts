/**
 * Reading build output through a host's static layer (Netlify's `context.next`,
 * Cloudflare's `env.ASSETS`). The sub-request is a bare GET: the client's conditional
 * headers must not reach the static layer, whose own ETags and 304s mean nothing here.
 */
import type { AssetReader } from "../static-records.ts";

export function staticLayerReader(origin: string, fetchAsset: (request: Request) => Promise<Response>): AssetReader {
  return async (path) => {
    const response = await fetchAsset(new Request(new URL(`/${path}`, origin)));
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`static layer answered ${response.status} for /${path}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}
