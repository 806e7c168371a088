/**
 * The library's evaluate() with `offline: true` unless the options say otherwise: for tests of everything but key
 * resolution over the network, whose manifests name a did:web of a host that does not exist (fixture-content.ts).
 * evaluate() itself resolves did:web keyRefs by default (tests/did-web.test.ts holds it to that).
 */
import { evaluate, type EvaluateOptions } from "../../core/evaluate/index.ts";

export const offlineEvaluate: typeof evaluate = (manifest, context, options: EvaluateOptions = {}) =>
  evaluate(manifest, context, { offline: true, ...options });
