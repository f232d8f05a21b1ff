import { z } from "zod";

// Reads a Grafana dashboard JSON for its PromQL: every panel's targets, the template variables'
// queries, and Grafana's variable substitution, so tests can run each query against a real
// Prometheus. Pure functions; deploy/observability.test.ts does the I/O.

const target = z.object({
  refId: z.string().min(1),
  expr: z.string().min(1, { error: "empty expr" }),
  range: z.boolean().optional(),
  instant: z.boolean().optional(),
  datasource: z.object({ type: z.string(), uid: z.string() }).optional(),
});

interface PanelIn {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: z.infer<typeof target>[];
  panels?: PanelIn[];
}

const panel: z.ZodType<PanelIn> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    type: z.string().min(1),
    title: z.string(),
    datasource: z.object({ type: z.string(), uid: z.string() }).optional(),
    gridPos: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
    targets: z.array(target).optional(),
    panels: z.array(panel).optional(),
  }),
);

const variable = z.object({
  name: z.string().regex(/^\w+$/, { error: "variable names are letters, digits and _" }),
  type: z.string(),
  query: z.unknown().optional(),
});

const dashboardSchema = z.object({
  title: z.string().min(1),
  uid: z.string().min(1),
  schemaVersion: z.number().int(),
  panels: z.array(panel),
  templating: z.object({ list: z.array(variable) }),
});

export type Dashboard = z.infer<typeof dashboardSchema>;
export type Panel = PanelIn;

export class DashboardError extends Error {}

export function parseDashboard(json: string): Dashboard {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new DashboardError(`dashboard is not JSON: ${String(err)}`);
  }
  const r = dashboardSchema.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new DashboardError(`dashboard: ${i?.path.join(".") ?? ""}: ${i?.message ?? "invalid"}`);
  }
  return r.data;
}

/** Every panel, rows' nested (collapsed) panels included, rows themselves left out. */
export function allPanels(d: Dashboard): Panel[] {
  const walk = (ps: Panel[]): Panel[] =>
    ps.flatMap((p) => (p.type === "row" ? walk(p.panels ?? []) : [p, ...walk(p.panels ?? [])]));
  return walk(d.panels);
}

export interface DashboardQuery {
  panel: string;
  panelType: string;
  refId: string;
  expr: string;
  /** Grafana runs it as a range query (time series panels) */
  range: boolean;
}

export function dashboardQueries(d: Dashboard): DashboardQuery[] {
  return allPanels(d).flatMap((p) =>
    (p.targets ?? []).map((t) => ({
      panel: p.title,
      panelType: p.type,
      refId: t.refId,
      expr: t.expr,
      range: t.range ?? !t.instant,
    })),
  );
}

export interface VariableQuery {
  name: string;
  query: string;
}

/** The query variables, in dashboard order (a variable may use the ones before it). */
export function variableQueries(d: Dashboard): VariableQuery[] {
  return d.templating.list
    .filter((v) => v.type === "query")
    .map((v) => {
      const q = v.query;
      const text = typeof q === "object" && q !== null && "query" in q ? q.query : q;
      if (typeof text !== "string" || text.trim() === "")
        throw new DashboardError(`variable ${v.name}: no query`);
      return { name: v.name, query: text };
    });
}

export interface LabelValuesQuery {
  label: string;
  /** series selector the values come from; undefined: every series */
  match?: string;
}

/** Grafana's `label_values(selector, label)` / `label_values(label)`; anything else is refused. */
export function parseLabelValues(query: string): LabelValuesQuery {
  const m = /^\s*label_values\(\s*(?:(.*\S)\s*,\s*)?([a-zA-Z_]\w*)\s*\)\s*$/s.exec(query);
  if (!m?.[2])
    throw new DashboardError(
      `unsupported variable query "${query}" (use label_values(selector, label) or label_values(label))`,
    );
  return m[1] ? { label: m[2], match: m[1] } : { label: m[2] };
}

/**
 * What Grafana puts in PromQL for a multi-value variable (its prometheusSpecialRegexEscape): each
 * regex metacharacter behind two backslashes, since the PromQL string literal takes one away.
 */
export function formatRegex(values: readonly string[]): string {
  const escaped = values.map((v) =>
    v.replace(/\\/g, "\\\\\\\\").replace(/[$^*{}[\]'+?.()|]/g, "\\\\$&"),
  );
  return escaped.length === 1 ? (escaped[0] ?? "") : `(${escaped.join("|")})`;
}

/**
 * Replaces `$name`, `${name}` and `[[name]]` with the variable's values (regex-formatted) or a
 * built-in (`$__rate_interval`, `$__range`, …). An unknown variable is an error, not left as is.
 */
export function substitute(
  expr: string,
  values: Readonly<Record<string, readonly string[]>>,
  builtins: Readonly<Record<string, string>>,
): string {
  return expr.replace(
    /\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)/g,
    (whole, a?: string, b?: string, c?: string) => {
      const name = a ?? b ?? c ?? "";
      const builtin = builtins[name];
      if (builtin !== undefined) return builtin;
      const v = values[name];
      if (v === undefined) throw new DashboardError(`unknown variable ${whole} in "${expr}"`);
      if (v.length === 0) throw new DashboardError(`variable ${whole} has no value`);
      return formatRegex(v);
    },
  );
}

const LIST_CLAUSE = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g;
const KEYWORDS = new Set(["and", "or", "unless", "bool", "group_left", "group_right"]);

/** Metric names a PromQL expression reads (label names, strings and durations left out). */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(LIST_CLAUSE, " ")
    .replace(/\boffset\s+-?\w+/g, " ")
    .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, " ");
  const names = new Set<string>();
  for (const m of bare.matchAll(/[a-zA-Z_:][\w:]*/g)) {
    const rest = bare.slice((m.index ?? 0) + m[0].length);
    // a function call, an aggregation, or a keyword is not a metric
    if (/^\s*\(/.test(rest) || KEYWORDS.has(m[0])) continue;
    names.add(m[0]);
  }
  return [...names].sort();
}
