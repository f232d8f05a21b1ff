// The import rules of the house (docs/architecture.md, "Layers"), checked by `npm run lint`.
// One source of truth: the layer table below is the one the docs draw. Lowest layer first; a file
// may import its own layer and the layers below it, never one above. Within a layer, folders may
// import each other only one way (no folder cycle). Tests (*.test.ts) may import anything.
//
// What each rule prints on a violation: the importing file, the imported file, and for cycles the
// whole path of imports that closes the cycle (`npm run lint:deps` shows it on its own).

/** Layers, lowest first: [name, path regexes]. Paths are repository-relative. */
const LAYERS = [
  ["core", ["^lib/core/", "^exporter/contract\\.ts$"]],
  ["config", ["^lib/(env|db-url)\\.ts$", "^lib/config/", "^lib/format/"]],
  [
    "platform",
    [
      "^lib/(db|db-sqlite|db-plan-cache|app-metrics)\\.ts$",
      "^lib/generated/",
      "^lib/net/",
      "^lib/server/",
    ],
  ],
  ["data", ["^lib/metrics/", "^lib/ingest/", "^lib/tick/"]],
  ["domain", ["^lib/(auth|zod|settings|pricing)/"]],
  [
    "features",
    [
      "^lib/(ledger|spend|fleet|focus|compare|benchmarks|budgets|recommendations|alerts|notify|queries|people|policies|billing|work)/",
    ],
  ],
  ["wiring", ["^lib/(jobs|openapi|install|demo)/"]],
  ["ui", ["^app/", "^components/", "^(proxy|instrumentation)\\.ts$"]],
];

/** Test support: what only tests, benchmarks and tools may import. */
const TEST_SUPPORT = [
  "^lib/testing/",
  "^exporter/test/",
  "^fault/",
  "^e2e/",
  "\\.test\\.tsx?$",
  "(^|/)[^/]*fixtures[^/]*\\.ts$",
  "^lib/focus/test-ledger\\.ts$",
];

/** The shipped product: every file of these folders that is not a test or test support. */
const PRODUCTION = [
  "^lib/",
  "^app/",
  "^components/",
  "^exporter/",
  "^(proxy|instrumentation)\\.ts$",
];

const TESTS = "\\.test\\.tsx?$";

const layerRules = LAYERS.slice(0, -1).map(([name, paths], i) => ({
  name: `layer-${name}`,
  severity: "error",
  comment: `${name} imports only its own layer and the ones below it (docs/architecture.md, "Layers")`,
  from: { path: paths, pathNot: TESTS },
  to: { path: LAYERS.slice(i + 1).flatMap(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-folder-cycle",
      severity: "error",
      scope: "folder",
      comment: "folders of lib/ depend on each other one way only",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "no-runtime-cycle",
      severity: "error",
      comment: "no cycle of run-time imports between files",
      from: { pathNot: TESTS },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "type-only-cycle",
      severity: "warn",
      comment:
        "a cycle closed only by type imports: harmless at run time, reported to be untangled",
      from: { pathNot: TESTS },
      to: { circular: true, via: { dependencyTypes: ["type-only"] } },
    },
    {
      name: "no-test-support-in-production",
      severity: "error",
      comment:
        "the product never imports test support (lib/testing, fixtures, workers only tests run)",
      from: { path: PRODUCTION, pathNot: TEST_SUPPORT },
      to: { path: TEST_SUPPORT },
    },
    {
      name: "ui-never-imports-the-store",
      severity: "error",
      comment: "pages, routes and components reach the store only through a service of lib/",
      from: { path: ["^app/", "^components/"], pathNot: TESTS },
      to: { path: ["^lib/db\\.ts$", "^lib/generated/"] },
    },
    {
      name: "exporter-stands-alone",
      severity: "error",
      comment: "the exporter is its own program: it imports nothing of the app",
      from: { path: "^exporter/", pathNot: TESTS },
      to: { path: "^(lib|app|components)/" },
    },
    {
      name: "app-reads-only-the-exporter-contract",
      severity: "error",
      comment:
        "the app shares the metric contract with the exporter, nothing else (the demo runs the simulator)",
      from: {
        path: ["^lib/", "^app/", "^components/"],
        pathNot: ["^lib/demo/", "^lib/testing/", TESTS],
      },
      to: { path: "^exporter/", pathNot: "^exporter/contract\\.ts$" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: ["^lib/generated/", "^\\.next/", "^dist/", "\\.test\\.tsx?$", "\\.spec\\.ts$"],
    },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
