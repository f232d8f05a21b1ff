// Every real capture in exporter/test/fixtures/captures goes through the parser for its format, so
// a capture added there later fails here until the exporter is taught about it.

import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mapDcgm } from "../dcgm/map.ts";
import { parsePrometheusText } from "../dcgm/parse-text.ts";
import { HAVE_SHARED, SHARED_FIXTURES, shared } from "../test/helpers.ts";
import { resolveFields } from "./fields.ts";
import { parseComputeApps } from "./parse-apps.ts";
import { parseHelpQueryGpu } from "./parse-help.ts";
import { parseQueryGpu } from "./parse-query.ts";
import { parseQueryXml } from "./parse-xml.ts";

/** file name → what parsing it must yield */
const CHECKS: [RegExp, (text: string) => void][] = [
  [
    /^query-gpu-.*\.csv$/,
    (t) => {
      const r = parseQueryGpu(t);
      expect(r.warnings).toEqual([]);
      expect(r.items.length).toBeGreaterThan(0);
      for (const g of r.items) expect(g.uuid).toMatch(/^GPU-/);
    },
  ],
  [
    /^query-compute-apps-.*\.csv$/,
    (t) => {
      const r = parseComputeApps(t);
      expect(r.warnings).toEqual([]);
      expect(r.items.length).toBeGreaterThan(0);
    },
  ],
  [
    /^help-query-gpu-.*\.txt$/,
    (t) => {
      expect(resolveFields(parseHelpQueryGpu(t)).query.length).toBeGreaterThan(20);
    },
  ],
  [
    /^q-x-.*\.xml$/,
    (t) => {
      const r = parseQueryXml(t);
      expect(r.warnings).toEqual([]);
      expect(r.items.length).toBeGreaterThan(0);
    },
  ],
  [
    /^table-.*\.txt$/,
    (t) => {
      // the human table is not a query format: nothing may come out of it
      expect(parseQueryGpu(t).items).toEqual([]);
      expect(parseComputeApps(t).items).toEqual([]);
    },
  ],
  [
    /^dcgm-exporter-.*\.prom$/,
    (t) => {
      const r = parsePrometheusText(t);
      expect(r.warnings).toEqual([]);
      expect(mapDcgm(r.items).gpus.length).toBeGreaterThan(0);
    },
  ],
];

describe.skipIf(!HAVE_SHARED)("every real capture", () => {
  const files = HAVE_SHARED ? readdirSync(SHARED_FIXTURES).filter((f) => f !== "README.md") : [];
  it.each(files)("%s", (file) => {
    const check = CHECKS.find(([re]) => re.test(file));
    if (!check) throw new Error(`no parser test for ${file}: add one to CHECKS`);
    check[1](shared(file));
  });
});
