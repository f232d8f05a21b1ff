import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  allPanels,
  dashboardQueries,
  DashboardError,
  formatRegex,
  metricNames,
  parseDashboard,
  parseLabelValues,
  substitute,
  variableQueries,
} from "./dashboard.ts";

const JSON_TEXT = readFileSync(new URL("./gpufleet.json", import.meta.url), "utf8");

describe("dashboard helpers", () => {
  it("refuse a dashboard that is not JSON or lacks what Grafana needs", () => {
    expect(() => parseDashboard("{")).toThrow(/dashboard is not JSON/);
    expect(() => parseDashboard(JSON.stringify({ title: "x", uid: "x" }))).toThrow(
      /dashboard: schemaVersion: /,
    );
    const noExpr = {
      title: "x",
      uid: "x",
      schemaVersion: 39,
      templating: { list: [] },
      panels: [
        { id: 1, type: "stat", title: "s", gridPos: { x: 0, y: 0, w: 1, h: 1 }, targets: [] },
      ],
    };
    noExpr.panels[0]?.targets.push({ refId: "A", expr: "" } as never);
    expect(() => parseDashboard(JSON.stringify(noExpr))).toThrow(
      "dashboard: panels.0.targets.0.expr: empty expr",
    );
  });

  it("collect targets from rows, collapsed rows included, and tell range from instant", () => {
    const grid = { x: 0, y: 0, w: 1, h: 1 };
    const d = parseDashboard(
      JSON.stringify({
        title: "x",
        uid: "x",
        schemaVersion: 39,
        templating: { list: [{ name: "v", type: "query", query: { query: "label_values(a)" } }] },
        panels: [
          { id: 1, type: "row", title: "r", gridPos: grid, panels: [] },
          {
            id: 2,
            type: "timeseries",
            title: "t",
            gridPos: grid,
            targets: [{ refId: "A", expr: "up" }],
          },
          {
            id: 3,
            type: "row",
            title: "collapsed",
            gridPos: grid,
            panels: [
              {
                id: 4,
                type: "stat",
                title: "s",
                gridPos: grid,
                targets: [{ refId: "A", expr: "x", instant: true }],
              },
            ],
          },
        ],
      }),
    );
    expect(allPanels(d).map((p) => p.id)).toEqual([2, 4]);
    expect(dashboardQueries(d).map((q) => `${q.panel}:${q.expr}:${q.range}`)).toEqual([
      "t:up:true",
      "s:x:false",
    ]);
    expect(variableQueries(d)).toEqual([{ name: "v", query: "label_values(a)" }]);
  });

  it("parse label_values and refuse other variable queries", () => {
    expect(parseLabelValues('label_values(gpu_info{instance=~"$instance"}, gpu)')).toEqual({
      match: 'gpu_info{instance=~"$instance"}',
      label: "gpu",
    });
    expect(parseLabelValues("label_values(job)")).toEqual({ label: "job" });
    expect(() => parseLabelValues("query_result(up)")).toThrow(
      'unsupported variable query "query_result(up)"',
    );
    expect(() => parseLabelValues("label_values(up, )")).toThrow(DashboardError);
  });

  it("substitute variables as Grafana formats them for PromQL", () => {
    const values = { instance: ["h:1/hosts/0/metrics", "h:1/hosts/1/metrics"], gpu: ["0"] };
    const builtins = { __rate_interval: "1m" };
    expect(
      substitute(
        'rate(x{instance=~"$instance", gpu=~"${gpu}"}[$__rate_interval])',
        values,
        builtins,
      ),
    ).toBe('rate(x{instance=~"(h:1/hosts/0/metrics|h:1/hosts/1/metrics)", gpu=~"0"}[1m])');
    expect(substitute('x{gpu=~"[[gpu]]"}', values, builtins)).toBe('x{gpu=~"0"}');
    expect(formatRegex(["a.b", "c|d"])).toBe("(a\\\\.b|c\\\\|d)");
    expect(formatRegex(["a\\b"])).toBe("a\\\\\\\\b");
    expect(() => substitute('x{a=~"$nope"}', values, builtins)).toThrow(
      'unknown variable $nope in "x{a=~"$nope"}"',
    );
    expect(() => substitute('x{a=~"$empty"}', { empty: [] }, builtins)).toThrow(
      "variable $empty has no value",
    );
  });

  it("find the metric names an expression reads", () => {
    expect(
      metricNames(
        'count((gpu_utilization_ratio{job=~"$job"} < 0.05) and on(instance, uuid) (gpu_processes > 0)) or vector(0)',
      ),
    ).toEqual(["gpu_processes", "gpu_utilization_ratio"]);
    expect(
      metricNames(
        'sum by (hostname) (gpu_memory_used_bytes{instance=~"x"} * on(instance) group_left(hostname) gpu_host_info) / 1e9',
      ),
    ).toEqual(["gpu_host_info", "gpu_memory_used_bytes"]);
    expect(metricNames("increase(gpu_ecc_errors_total[$__range]) offset 5m")).toEqual([
      "gpu_ecc_errors_total",
    ]);
  });
});

describe("deploy/grafana/gpufleet.json", () => {
  const d = parseDashboard(JSON_TEXT);
  const panels = allPanels(d);
  const vars = d.templating.list;

  it("is a provisionable dashboard with a datasource variable and host filters", () => {
    expect(d.uid).toBe("gpufleet");
    expect(d.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(vars.find((v) => v.name === "datasource")).toMatchObject({
      type: "datasource",
      query: "prometheus",
    });
    for (const name of ["job", "hostname", "instance", "gpu"])
      expect(vars.find((v) => v.name === name)?.type, name).toBe("query");
    expect(d.panels.filter((p) => p.type === "row").map((p) => p.title)).toEqual([
      "Fleet",
      "Host",
      "GPU",
    ]);
  });

  it("reads every panel through the datasource variable, with unique ids and a valid grid", () => {
    const ids = [...d.panels.filter((p) => p.type === "row"), ...panels].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of panels) {
      expect(p.datasource?.uid, p.title).toBe("${datasource}");
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      const refs = (p.targets ?? []).map((t) => t.refId);
      expect(refs.length, `${p.title} has no query`).toBeGreaterThan(0);
      expect(new Set(refs).size, p.title).toBe(refs.length);
      for (const t of p.targets ?? []) expect(t.datasource?.uid, p.title).toBe("${datasource}");
    }
  });

  it("uses only variables it defines", () => {
    const values = Object.fromEntries(vars.map((v) => [v.name, ["x"]]));
    const builtins = { __rate_interval: "1m", __interval: "15s", __range: "1h" };
    for (const q of dashboardQueries(d))
      expect(() => substitute(q.expr, values, builtins)).not.toThrow();
    for (const v of variableQueries(d)) {
      const lv = parseLabelValues(v.query);
      if (lv.match) expect(() => substitute(lv.match ?? "", values, builtins)).not.toThrow();
    }
  });

  it("charts every metric of the exporter's contract that the issue asks for", () => {
    const used = new Set(dashboardQueries(d).flatMap((q) => metricNames(q.expr)));
    for (const m of [
      "gpu_info",
      "gpu_host_info",
      "gpu_utilization_ratio",
      "gpu_memory_utilization_ratio",
      "gpu_memory_used_bytes",
      "gpu_memory_total_bytes",
      "gpu_power_draw_watts",
      "gpu_power_limit_watts",
      "gpu_temperature_celsius",
      "gpu_sm_clock_hertz",
      "gpu_memory_clock_hertz",
      "gpu_clock_event_active",
      "gpu_ecc_errors_total",
      "gpu_processes",
      "gpu_process_memory_used_bytes",
      "gpu_mig_memory_used_bytes",
      "gpu_mig_memory_total_bytes",
      "gpu_exporter_collector_success",
      "up",
    ])
      expect(used.has(m), m).toBe(true);
  });
});
