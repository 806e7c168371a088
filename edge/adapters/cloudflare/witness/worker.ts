/**
 * The witness (C2SP tlog-witness) as a Cloudflare Worker, for those who want a witness with
 * no machine of their own: `manifest-resolver/cloudflare-witness`, whose default export is
 * the Worker and whose `WitnessLog` is the Durable Object class it keeps its state in, one
 * object per log, bound as `WITNESS_STATE` (docs/hosts.md has the wrangler.toml).
 * The protocol is core's witnessHandler, the one the Node server runs; the store is
 * durable-witness-store.ts, whose compare-and-swap on each log's object keeps the check
 * against the latest cosigned size and the write of the next one atomic per log. The key
 * and the logs come from the Worker's variables (witness-config.ts), read once per isolate;
 * a configuration that is not one answers 500 on every path, saying which variable is
 * wrong, and so does a failure to reach a log's state: never a cosignature. Each request is
 * logged as one line of JSON (Workers Logs reads it as structured).
 */
import { type WitnessEvent, witnessHandler } from "../../../../core/witness/witness-handler.ts";
import { durableWitnessStore, type WitnessLogNamespace } from "./durable-witness-store.ts";
import { witnessFromVariables, type WitnessVariables } from "./witness-config.ts";

export { WitnessLog } from "./witness-log.ts";

export interface WitnessWorkerEnv extends WitnessVariables {
  /** The Durable Object namespace of WitnessLog. */
  WITNESS_STATE?: WitnessLogNamespace;
}

type Served =
  | { ok: true; handle: (request: Request) => Promise<Response> }
  | { ok: false; variable: keyof WitnessWorkerEnv; reason: string };

/** Each environment's witness, made at its first request; an environment is the same object for a deployment's life. */
const served = new WeakMap<object, Promise<Served>>();

async function serve(env: WitnessWorkerEnv): Promise<Served> {
  const configured = await witnessFromVariables(env);
  if (!configured.ok) return configured;
  const namespace = env.WITNESS_STATE;
  if (namespace === undefined || typeof namespace.idFromName !== "function")
    return { ok: false, variable: "WITNESS_STATE", reason: "not bound: the Durable Object namespace of WitnessLog" };
  const handle = witnessHandler({ witness: configured.witness, store: durableWitnessStore(namespace), log });
  return { ok: true, handle };
}

function log(event: WitnessEvent & { variable?: string; error?: string }): void {
  console.log(JSON.stringify(event));
}

export default {
  async fetch(request: Request, env: WitnessWorkerEnv): Promise<Response> {
    const started = performance.now();
    const failed = (reason: string, extra: { variable?: string; error?: string }) => {
      const path = new URL(request.url).pathname;
      log({ method: request.method, path, status: 500, ms: performance.now() - started, reason, ...extra });
      return new Response(`${reason}\n`, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
    };
    let witness = served.get(env);
    if (witness === undefined) {
      witness = serve(env);
      served.set(env, witness);
      // A failure that is no configuration's is tried again at the next request; a configuration's is kept.
      witness.catch(() => served.delete(env));
    }
    try {
      const ready = await witness;
      if (!ready.ok)
        return failed(`the witness is not configured: ${ready.variable}: ${ready.reason}`, {
          variable: ready.variable,
        });
      return await ready.handle(request);
    } catch (error) {
      return failed("the witness failed: nothing was cosigned", { error: String(error) });
    }
  },
};
