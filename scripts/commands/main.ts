/**
 * `manifest-resolver`: the CLI's entry (bin/load-cli.js), the table of its commands. Each command's declaration is
 * loaded only for it (its --help, its usage errors), and its run only to run it (scripts/cli/command.ts).
 */
import { defineCommand } from "../cli/command.ts";
import { type CommandEntry, dispatch } from "../cli/dispatch.ts";

export const COMMANDS: CommandEntry[] = [
  {
    name: "init",
    summary: "make a folder a publisher's repository: content/, host settings, CI workflows",
    load: async () =>
      defineCommand((await import("./init-declaration.ts")).init, async () => (await import("./init.ts")).runInit),
  },
  {
    name: "keygen",
    summary: "make a new Ed25519 key for a role, and pin or record its public half where the role needs it",
    load: async () =>
      defineCommand(
        (await import("./keygen-declaration.ts")).keygen,
        async () => (await import("./keygen.ts")).runKeygen,
      ),
  },
  {
    name: "new",
    summary: "print or write a new, unsigned v0.4 manifest skeleton",
    load: async () =>
      defineCommand((await import("./new-declaration.ts")).newManifest, async () => (await import("./new.ts")).runNew),
  },
  {
    name: "sign",
    summary: "sign manifests with Profile A (Ed25519 over JCS), rewriting them in place",
    load: async () =>
      defineCommand((await import("./sign-declaration.ts")).sign, async () => (await import("./sign.ts")).runSign),
  },
  {
    name: "check",
    summary: "validate manifests, _routes.json and _keys.json without writing anything",
    load: async () =>
      defineCommand((await import("./check-declaration.ts")).check, async () => (await import("./check.ts")).runCheck),
  },
  {
    name: "explain",
    summary: "explain a rule a problem names: what is wrong, why it matters, how to fix it",
    load: async () =>
      defineCommand(
        (await import("./explain-declaration.ts")).explain,
        async () => (await import("./explain.ts")).runExplain,
      ),
  },
  {
    name: "revoke",
    summary: "revoke a UMID in _routes.json: it then answers 410",
    load: async () =>
      defineCommand(
        (await import("./routes-declaration.ts")).revoke,
        async () => (await import("./routes.ts")).runRevoke,
      ),
  },
  {
    name: "suspend",
    summary: "suspend a published UMID in _routes.json: its status becomes suspended",
    load: async () =>
      defineCommand(
        (await import("./routes-declaration.ts")).suspend,
        async () => (await import("./routes.ts")).runSuspend,
      ),
  },
  {
    name: "reinstate",
    summary: "end the suspension of a UMID in _routes.json: its status becomes active",
    load: async () =>
      defineCommand(
        (await import("./routes-declaration.ts")).reinstate,
        async () => (await import("./routes.ts")).runReinstate,
      ),
  },
  {
    name: "redirect",
    summary: "redirect a UMID to a URL in _routes.json: it then answers 307",
    load: async () =>
      defineCommand(
        (await import("./routes-declaration.ts")).redirect,
        async () => (await import("./routes.ts")).runRedirect,
      ),
  },
  {
    name: "log",
    summary: "append the content's served states to its transparency log (content/_log/) and sign it",
    load: async () =>
      defineCommand((await import("./log-declaration.ts")).log, async () => (await import("./log.ts")).runLog),
  },
  {
    name: "build",
    summary: "validate content/ and write the resolver's static output to dist/",
    load: async () =>
      defineCommand((await import("./build-declaration.ts")).build, async () => (await import("./build.ts")).runBuild),
  },
  {
    name: "serve",
    summary: "serve a built dist/ through the resolver's edge handler, until stopped",
    load: async () =>
      defineCommand((await import("./serve-declaration.ts")).serve, async () => (await import("./serve.ts")).runServe),
  },
  {
    name: "dev",
    summary: "build, serve with the lookup page, and build again at each change of content/",
    load: async () =>
      defineCommand((await import("./dev-declaration.ts")).dev, async () => (await import("./dev.ts")).runDev),
  },
  {
    name: "probe",
    summary: "check a running resolver (local, a deploy preview, production) against the contract",
    load: async () =>
      defineCommand((await import("./probe-declaration.ts")).probe, async () => (await import("./probe.ts")).runProbe),
  },
  {
    name: "monitor",
    summary: "audit the transparency log a resolver serves, and print the UMIDs whose state changed",
    load: async () =>
      defineCommand(
        (await import("./monitor-declaration.ts")).monitor,
        async () => (await import("./monitor.ts")).runMonitor,
      ),
  },
  {
    name: "witness",
    summary: "witness serve: cosign the checkpoints of logs, each extending the last (C2SP tlog-witness)",
    load: async () =>
      defineCommand(
        (await import("./witness-declaration.ts")).witness,
        async () => (await import("./witness.ts")).runWitness,
      ),
  },
  {
    name: "evaluate",
    summary: "evaluate a manifest as a relying party would, and print its receipt",
    load: async () =>
      defineCommand(
        (await import("./evaluate-declaration.ts")).evaluateCommand,
        async () => (await import("./evaluate.ts")).runEvaluate,
      ),
  },
  {
    name: "resolve",
    summary: "resolve a UMID at a resolver, check its status, evaluate it, print the receipt",
    load: async () =>
      defineCommand(
        (await import("./resolve-declaration.ts")).resolveCommand,
        async () => (await import("./resolve.ts")).runResolve,
      ),
  },
];

export function main(argv: string[]): Promise<number> {
  return dispatch(argv, COMMANDS);
}
