/**
 * The layering the folders stand for (docs/architecture.md), checked by `npm run lint`:
 * imports point down only, tools → bin → scripts → edge → core, and never in a circle;
 * lookup-page/, browser code, imports core/ only.
 * core/ runs in every runtime (Node, Deno, workerd, browsers), so it imports no Node
 * module and no package; edge/ likewise, but for its Node adapter.
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle, even of types only: split out what both sides need.",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-imports-only-core",
      severity: "error",
      comment:
        "core/ runs in every runtime: it imports only core/, and @noble/hashes and @noble/curves (audited, pure " +
        "JS, bundled: the package ships no runtime dependency).",
      from: { path: "^core/" },
      to: { pathNot: ["^core/", "^node_modules/@noble/(hashes|curves)/"] },
    },
    {
      name: "edge-imports-only-edge-and-core",
      severity: "error",
      comment: "edge/ is the handler every host runs: it imports only edge/ and core/ (its Node adapter, Node too).",
      from: { path: "^edge/", pathNot: "^edge/adapters/node\\.ts$" },
      to: { pathNot: ["^edge/", "^core/"] },
    },
    {
      name: "edge-node-adapter",
      severity: "error",
      comment: "The Node adapter imports edge/, core/ and Node's own modules only.",
      from: { path: "^edge/adapters/node\\.ts$" },
      to: { pathNot: ["^edge/", "^core/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "lookup-page-imports-only-core",
      severity: "error",
      comment:
        "lookup-page/ is browser code: it imports only lookup-page/ and core/ (web-standard APIs, bundled for a page).",
      from: { path: "^lookup-page/" },
      to: { pathNot: ["^lookup-page/", "^core/"] },
    },
    {
      name: "nothing-imports-lookup-page",
      severity: "error",
      comment:
        "The lookup page is bundled from its files (scripts/lookup-page-files/files.ts reads lookup.ts as a file), " +
        "not imported: only its own modules and its tests import it.",
      from: { pathNot: ["^lookup-page/", "^tests/"] },
      to: { path: "^lookup-page/" },
    },
    {
      name: "product-imports-no-dev-code",
      severity: "error",
      comment:
        "The product (core/, edge/, lookup-page/, scripts/, bin/) never imports developer tools, tests or benchmarks.",
      from: { path: "^(core|edge|lookup-page|scripts|bin)/" },
      to: { path: "^(tools|tests|bench)/" },
    },
    {
      name: "product-compiles-no-schema",
      severity: "error",
      comment:
        "Every schema the product validates against is compiled ahead of time (tools/generate-validators.ts, " +
        "core/validate/generated/): nothing it runs loads ajv, whose load and compiling cost every check and build.",
      from: { path: "^(core|edge|lookup-page|scripts|bin)/" },
      to: { path: "(^|/)node_modules/ajv(-formats)?/" },
    },
    // The build's stages run read → check → plan → write: a stage takes what an earlier one
    // made and never calls a later one. Only the pipeline (scripts/pipeline/) composes them.
    {
      name: "read-stage-first",
      severity: "error",
      from: { path: "^scripts/read/" },
      to: { path: "^scripts/(check|plan|write)/" },
    },
    {
      name: "check-stage-before-plan-and-write",
      severity: "error",
      from: { path: "^scripts/check/" },
      to: { path: "^scripts/(plan|write)/" },
    },
    {
      name: "plan-stage-before-write",
      severity: "error",
      from: { path: "^scripts/plan/" },
      to: { path: "^scripts/write/" },
    },
    {
      name: "commands-enter-the-pipeline-once",
      severity: "error",
      comment:
        "A command calls the pipeline through its one entry point, scripts/pipeline/index.ts: only the pipeline " +
        "composes the plan and write stages and opens the cache. A declaration, loaded alone for --help, may read " +
        "a constant.",
      from: { path: "^scripts/commands/", pathNot: "-declaration\\.ts$" },
      to: { path: "^scripts/(plan|write|cache)/|^scripts/pipeline/(?!index\\.ts$)" },
    },
    {
      name: "scripts-imports-no-bin",
      severity: "error",
      from: { path: "^(core|edge|lookup-page|scripts)/" },
      to: { path: "^bin/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|lib|dist|bench/\\.cache)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default", "node"] },
    combinedDependencies: false,
  },
};
