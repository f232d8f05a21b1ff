import "server-only";
import { ConflictError } from "../core/errors.ts";
import { db, type Db } from "../db.ts";
import { shortUsd } from "./import/price.ts";
import type { SpotParseResult, SpotPoint } from "./spot-history.ts";

// The only writer of SpotPrice. An import is all or nothing (one transaction): records already
// stored at the same price are unchanged; a record stored at another price (the same zone, type and
// time) refuses the import, each conflict named, because AWS's history does not change after the
// fact and two files disagreeing means one of them is not what the CLI printed.

const PROVIDER = "aws";
const CHUNK = 500;

export interface SpotImportResult {
  dryRun: boolean;
  added: number;
  unchanged: number;
  /** instance type -> zones imported */
  zones: Record<string, string[]>;
  first: string | null;
  last: string | null;
}

/** Records stored at another price (an API answers 409 conflict). */
export class SpotConflictError extends ConflictError {
  constructor(readonly conflicts: string[]) {
    super(
      `${conflicts.length} record(s) differ from stored prices, nothing written: ${conflicts.slice(0, 5).join("; ")}`,
    );
    this.name = "SpotConflictError";
  }
}

function key(p: { instanceType: string; zone: string; at: Date }): string {
  return `${p.instanceType}|${p.zone}|${p.at.getTime()}`;
}

/** Stores parsed points (several files' points together: duplicates across files count once). */
export async function importSpotHistory(
  client: Db,
  points: readonly SpotPoint[],
  source: string,
  opts: { dryRun: boolean },
): Promise<SpotImportResult> {
  const unique = new Map<string, SpotPoint>();
  const conflicts: string[] = [];
  for (const p of points) {
    const before = unique.get(key(p));
    if (before && before.usdPerHourMicros !== p.usdPerHourMicros) {
      conflicts.push(
        `${p.instanceType} ${p.zone} ${p.at.toISOString()}: ${shortUsd(before.usdPerHourMicros)} and ${shortUsd(p.usdPerHourMicros)} in the files`,
      );
    }
    unique.set(key(p), p);
  }
  const list = [...unique.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
  const result: SpotImportResult = {
    dryRun: opts.dryRun,
    added: 0,
    unchanged: 0,
    zones: {},
    first: list[0]?.at.toISOString() ?? null,
    last: list.at(-1)?.at.toISOString() ?? null,
  };
  for (const p of list) {
    const zones = (result.zones[p.instanceType] ??= []);
    if (!zones.includes(p.zone)) zones.push(p.zone);
  }
  const first = list[0];
  const last = list.at(-1);
  if (!first || !last) return result;
  return client.$transaction(async (tx) => {
    const stored = await tx.spotPrice.findMany({
      where: {
        provider: PROVIDER,
        instanceType: { in: Object.keys(result.zones) },
        at: { gte: first.at, lte: last.at },
      },
      select: { instanceType: true, zone: true, at: true, usdPerHourMicros: true },
    });
    const have = new Map(stored.map((s) => [key(s), s.usdPerHourMicros]));
    const fresh: SpotPoint[] = [];
    for (const p of list) {
      const old = have.get(key(p));
      if (old === undefined) fresh.push(p);
      else if (old === p.usdPerHourMicros) result.unchanged++;
      else {
        conflicts.push(
          `${p.instanceType} ${p.zone} ${p.at.toISOString()}: stored ${shortUsd(old)}, file ${shortUsd(p.usdPerHourMicros)}`,
        );
      }
    }
    if (conflicts.length > 0) throw new SpotConflictError(conflicts);
    result.added = fresh.length;
    if (opts.dryRun) return result;
    for (let i = 0; i < fresh.length; i += CHUNK) {
      await tx.spotPrice.createMany({
        data: fresh.slice(i, i + CHUNK).map((p) => ({ provider: PROVIDER, ...p, source })),
      });
    }
    return result;
  });
}

/** importSpotHistory on the app's database (the upload route). */
export function importSpotHistoryToStore(
  points: readonly SpotPoint[],
  source: string,
  opts: { dryRun: boolean },
): Promise<SpotImportResult> {
  return importSpotHistory(db, points, source, opts);
}

/** Lines for the CLI and the upload's preview. */
export function spotImportLines(parsed: SpotParseResult, result: SpotImportResult): string[] {
  const skipped = Object.entries(parsed.skippedProducts)
    .map(([p, n]) => `${n} ${p}`)
    .join(", ");
  const types = Object.entries(result.zones)
    .map(([t, z]) => `${t} (${z.sort().join(", ")})`)
    .join("; ");
  return [
    `read ${parsed.read} records: ${parsed.points.length} Linux/UNIX prices, ` +
      `${parsed.duplicates} repeated, ${skipped || "no other products"} skipped, ` +
      `${parsed.skippedZones} Local Zone records skipped`,
    `${result.dryRun ? "would add" : "added"} ${result.added}, unchanged ${result.unchanged}` +
      (result.first ? `, from ${result.first} to ${result.last}` : ""),
    ...(types ? [`instance types: ${types}`] : []),
  ];
}

/** The stored history per instance type, each sorted by time, for the price lookup. */
export async function loadSpotHistory(client: Db): Promise<Map<string, SpotPoint[]>> {
  const rows = await client.spotPrice.findMany({
    where: { provider: PROVIDER },
    orderBy: [{ instanceType: "asc" }, { at: "asc" }],
    select: { instanceType: true, zone: true, region: true, at: true, usdPerHourMicros: true },
  });
  const out = new Map<string, SpotPoint[]>();
  for (const r of rows) {
    const list = out.get(r.instanceType) ?? [];
    list.push(r);
    out.set(r.instanceType, list);
  }
  return out;
}
