import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Feature folders of lib/, the jobs that wire them, and the two UI folders: what the lower layers
// (lib/core, lib/metrics, lib/ingest) may not import.
const FEATURES = [
  "lib/alerts",
  "lib/auth",
  "lib/benchmarks",
  "lib/budgets",
  "lib/compare",
  "lib/demo",
  "lib/fleet",
  "lib/focus",
  "lib/install",
  "lib/ledger",
  "lib/notify",
  "lib/pricing",
  "lib/queries",
  "lib/recommendations",
  "lib/settings",
  "lib/spend",
  "lib/jobs",
  "app",
  "components",
];

const UI = ["app", "components"];

/** The import patterns that reach `dirs` (repo-relative) from anywhere, @/ or relative. */
function reaching(dirs) {
  return dirs.flatMap((d) => [`@/${d}/**`, `**/${d.split("/").pop()}/**`]);
}

/** Files under `dir` (tests excepted) may not import what `group` matches. */
function layer(dir, group, ignores = []) {
  return {
    files: [`${dir}/**/*.ts`, `${dir}/**/*.tsx`],
    ignores: ["**/*.test.ts", "**/*.test.tsx", ...ignores],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group,
              message: `${dir} may not import from a higher layer (docs/architecture.md, "Layers")`,
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "dist/**",
      "data/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  // Layers (docs/architecture.md): core < metrics, ingest < features < jobs < app. No import runs
  // from a lower layer up into a higher one; tests may import anything.
  // core: nothing outside itself but the metric contract
  layer("lib/core", ["../**", "@/lib/**", "!@/lib/core/**", "!../../exporter/contract.ts"]),
  layer("lib/metrics", reaching(FEATURES)),
  layer("lib/ingest", reaching(FEATURES)),
  // every feature: never the UI
  layer("lib", reaching(UI), ["lib/core/**", "lib/metrics/**", "lib/ingest/**"]),
);
