import { hostStateSchema, type InstanceRow } from "@/lib/zod/schemas/instance.ts";
import {
  DEFAULT_TABLE_QUERY,
  sortDirSchema,
  sortKeySchema,
  type SortKey,
  type TableQuery,
} from "@/lib/zod/schemas/instance-query.ts";

// The instance table's state lives in the URL. Parsing here is lenient (a stale shared link with a
// bad value still opens, with that value dropped); the API route uses the strict schema instead.

type ParamSource = URLSearchParams | Record<string, string | string[] | undefined>;

function read(params: ParamSource, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const v = params[key];
  return Array.isArray(v) ? v[0] : v;
}

function text(value: string | undefined): string | undefined {
  const t = value?.trim();
  return t ? t.slice(0, 100) : undefined;
}

export function parseTableQuery(params: ParamSource): TableQuery {
  const sort = sortKeySchema.safeParse(read(params, "sort"));
  const dir = sortDirSchema.safeParse(read(params, "dir"));
  const state = hostStateSchema.safeParse(read(params, "state"));
  const query: TableQuery = {
    sort: sort.success ? sort.data : DEFAULT_TABLE_QUERY.sort,
    dir: dir.success ? dir.data : DEFAULT_TABLE_QUERY.dir,
  };
  const provider = text(read(params, "provider"));
  const team = text(read(params, "team"));
  const q = text(read(params, "q"));
  if (provider) query.provider = provider;
  if (team) query.team = team;
  if (state.success) query.state = state.data;
  if (q) query.q = q;
  return query;
}

const TABLE_KEYS = ["sort", "dir", "provider", "team", "state", "q"] as const;

/** Writes the table state into a copy of `base`, leaving other parameters (e.g. range) alone. */
export function writeTableQuery(query: TableQuery, base?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const key of TABLE_KEYS) out.delete(key);
  if (query.sort !== DEFAULT_TABLE_QUERY.sort) out.set("sort", query.sort);
  if (query.dir !== DEFAULT_TABLE_QUERY.dir) out.set("dir", query.dir);
  if (query.provider) out.set("provider", query.provider);
  if (query.team) out.set("team", query.team);
  if (query.state) out.set("state", query.state);
  if (query.q) out.set("q", query.q);
  return out;
}

type SortValue = string | number | null;

function sortValue(row: InstanceRow, key: SortKey): SortValue {
  switch (key) {
    case "gpus":
      return row.gpus;
    case "util":
      return row.utilMean;
    case "memory":
      return row.memUsedBytes;
    case "price":
      return row.pricePerHourMicros === null ? null : Number(row.pricePerHourMicros);
    default:
      return row[key];
  }
}

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true, sensitivity: "base" });
}

export function matchesQuery(row: InstanceRow, query: TableQuery): boolean {
  if (query.provider && row.provider !== query.provider) return false;
  if (query.team && row.team !== query.team) return false;
  if (query.state && row.state !== query.state) return false;
  if (query.q) {
    const needle = query.q.toLowerCase();
    const hay = [row.hostname, row.instanceType, row.region, row.project, row.team, row.provider];
    if (!hay.some((h) => h.toLowerCase().includes(needle))) return false;
  }
  return true;
}

/** Filters then sorts; rows without a value (unpriced, not reporting) always sort last. */
export function applyTableQuery(rows: readonly InstanceRow[], query: TableQuery): InstanceRow[] {
  const sign = query.dir === "asc" ? 1 : -1;
  return rows
    .filter((r) => matchesQuery(r, query))
    .sort((a, b) => {
      const va = sortValue(a, query.sort);
      const vb = sortValue(b, query.sort);
      if (va === null && vb !== null) return 1;
      if (vb === null && va !== null) return -1;
      const c = va === null || vb === null ? 0 : compare(va, vb) * sign;
      return c !== 0 ? c : compare(a.hostname, b.hostname);
    });
}

/** Distinct values for the filter drop-downs, sorted. */
export function tableFacets(rows: readonly InstanceRow[]): {
  providers: string[];
  teams: string[];
} {
  const providers = [...new Set(rows.map((r) => r.provider))].sort();
  const teams = [...new Set(rows.map((r) => r.team))].sort();
  return { providers, teams };
}

/** Clicking a header: the same column flips; a new one starts A→Z for text, largest first for numbers. */
export function toggleSort(query: TableQuery, key: SortKey): TableQuery {
  if (query.sort === key) return { ...query, dir: query.dir === "asc" ? "desc" : "asc" };
  const numeric = key === "gpus" || key === "util" || key === "memory" || key === "price";
  return { ...query, sort: key, dir: numeric ? "desc" : "asc" };
}
