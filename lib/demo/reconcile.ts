import "server-only";
import { seedDemoPolicies } from "./policies.ts";
import { buildFleet } from "../../exporter/sim/fleet.ts";
import type { SimHostSpec } from "../../exporter/sim/types.ts";
import { parseLabels } from "../core/labels.ts";
import { RETIRED_HOST_STATE } from "../ingest/host-state.ts";
import type { Db } from "../db.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { loadPriceRows } from "../pricing/catalogue-db.ts";
import {
  backfillDemoHost,
  createDemoHost,
  DEMO_SEED,
  demoGpuRows,
  demoLabels,
  demoTarget,
  demoWindow,
  type SeedOptions,
} from "./seed.ts";

// Every `npm start` after the first: matches the stored demo hosts (origin "demo") to the
// simulated exporter now running, so a changed GPUFLEET_EXPORTER_PORT or GPUFLEET_DEMO_HOSTS
// takes effect. The simulator builds host N from (seed, N) alone, so the first N hosts of a larger
// fleet are the same hosts; a host is matched by its hostname.
//
// - a kept host is pointed at the exporter's current address;
// - a host the fleet gained is created with its GPUs and a short history (the last day of ledger
//   hours and chart minutes, from the same simulator; the 60 days a first start seeds take ~10 s
//   per 8-GPU host), as if it joined the fleet a day ago;
// - a host the fleet lost is retired: its row stays (the ledger, chart minutes, alerts and
//   recommendations reference it, and deleting it would delete its cost history), but it leaves
//   the live inventory: no scrape target (the collector scrapes only hosts with one), state
//   "retired" (shown as unknown), its GPU rows deleted (the fleet grid lists GPU rows; the
//   ledger and minutes keep the GPUs' uuids) and the label gpufleet_retired=true. The alert rules,
//   the fleet page, the recommendations and the costs page's "no price now" list leave hosts in
//   state "retired" out (RETIRED_HOST_STATE in lib/ingest/host-state.ts), so no alert fires for the
//   silent host and its open ones resolve;
// - a retired host the fleet gains again is restored, with its GPUs.
// Hosts of any other origin are never touched.

/** Label on a retired demo host, so its row says why it stopped. */
export const RETIRED_LABEL = "gpufleet_retired";
export const RETIRED_STATE = RETIRED_HOST_STATE;

/** Days of ledger hours and of chart minutes an added host is given. */
export const ADDED_HISTORY_DAYS = 1;

export type ReconcileOptions = Pick<
  SeedOptions,
  "exporterBase" | "databaseUrl" | "hosts" | "now" | "log"
> & {
  /** an added host's ledger history in days (ADDED_HISTORY_DAYS unless set) */
  historyDays?: number;
  /** an added host's chart minutes in days (ADDED_HISTORY_DAYS unless set) */
  chartDays?: number;
};

export interface ReconcileResult {
  /** kept hosts whose target changed */
  retargeted: string[];
  /** hosts created (with GPUs and history) */
  added: string[];
  /** hosts retired now */
  retired: string[];
  /** retired hosts brought back */
  restored: string[];
  /** rules that were given the retired-host exclusion now */
}

type StoredHost = {
  id: string;
  hostname: string;
  target: string | null;
  state: string;
  labels: string;
};

function isRetired(h: StoredHost): boolean {
  return h.state === RETIRED_STATE || parseLabels(h.labels)[RETIRED_LABEL] === "true";
}

/** Runs `write`; a unique-constraint clash (a non-demo host holds the name or URL) is logged. */
async function unlessTaken(log: (m: string) => void, what: string, write: () => Promise<unknown>) {
  try {
    await write();
    return true;
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    log(`cannot ${what}: another host already has that hostname or target`);
    return false;
  }
}

/** GPU rows of `spec` that no stored GPU has yet (a restored host's were deleted on retiring). */
async function missingGpus(db: Db, spec: SimHostSpec, hostId: string, firstSeen: Date) {
  const rows = demoGpuRows(spec, hostId, firstSeen);
  const have = new Set(
    (
      await db.gpu.findMany({
        where: { uuid: { in: rows.map((r) => r.uuid) } },
        select: { uuid: true },
      })
    ).map((g) => g.uuid),
  );
  return rows.filter((r) => !have.has(r.uuid));
}

/**
 * Matches the stored demo hosts to a simulated exporter at `exporterBase` serving `hosts` hosts.
 * Returns null on a store without demo hosts (nothing to match; seedDemo seeds an empty one).
 */
export async function reconcileDemo(
  db: Db,
  opts: ReconcileOptions,
): Promise<ReconcileResult | null> {
  const log = opts.log ?? (() => {});
  const stored: StoredHost[] = await db.host.findMany({
    where: { origin: "demo" },
    select: { id: true, hostname: true, target: true, state: true, labels: true },
    // by name: what is retired or restored is listed (and logged) in one order on either store
    orderBy: { hostname: "asc" },
  });
  if (stored.length === 0) return null;
  const fleet = buildFleet({ seed: DEMO_SEED, hosts: opts.hosts });
  const byName = new Map(stored.map((h) => [h.hostname, h]));
  const wanted = new Set(fleet.hosts.map((h) => h.hostname));
  const out: ReconcileResult = {
    retargeted: [],
    added: [],
    retired: [],
    restored: [],
  };
  const now = opts.now;

  for (const h of stored) {
    if (wanted.has(h.hostname) || isRetired(h)) continue;
    await db.host.update({
      where: { id: h.id },
      data: {
        target: null,
        state: RETIRED_STATE,
        lastError: `retired: the demo fleet now has ${fleet.hosts.length} hosts (GPUFLEET_DEMO_HOSTS)`,
        labels: JSON.stringify({ ...parseLabels(h.labels), [RETIRED_LABEL]: "true" }),
      },
    });
    await db.gpu.deleteMany({ where: { hostId: h.id } });
    out.retired.push(h.hostname);
  }

  const days = opts.historyDays ?? ADDED_HISTORY_DAYS;
  const w = demoWindow({
    now: opts.now,
    historyDays: days,
    chartDays: opts.chartDays ?? ADDED_HISTORY_DAYS,
  });
  let prices: Awaited<ReturnType<typeof loadPriceRows>> | null = null;
  for (const spec of fleet.hosts) {
    const target = demoTarget(opts.exporterBase, spec.id);
    const cur = byName.get(spec.hostname);
    if (!cur) {
      let hostId = "";
      const made = await unlessTaken(log, `add ${spec.hostname}`, async () => {
        hostId = await createDemoHost(db, spec, opts.exporterBase, new Date(w.historyStart));
      });
      if (!made) continue;
      prices ??= await loadPriceRows(db);
      await backfillDemoHost(db, opts.databaseUrl, fleet, spec, hostId, prices, w);
      out.added.push(spec.hostname);
    } else if (isRetired(cur)) {
      const ok = await unlessTaken(log, `restore ${spec.hostname} at ${target}`, () =>
        db.host.update({
          where: { id: cur.id },
          data: {
            target,
            state: "unknown",
            lastError: null,
            labels: JSON.stringify(demoLabels(spec)),
          },
        }),
      );
      if (!ok) continue;
      await db.gpu.createMany({ data: await missingGpus(db, spec, cur.id, now) });
      out.restored.push(spec.hostname);
    } else if (cur.target !== target) {
      const ok = await unlessTaken(log, `point ${spec.hostname} at ${target}`, () =>
        db.host.update({
          where: { id: cur.id },
          // its state and last error were about the old address
          data: { target, state: "unknown", lastError: null },
        }),
      );
      if (ok) out.retargeted.push(spec.hostname);
    }
  }

  if (out.retargeted.length > 0)
    log(`pointed ${out.retargeted.length} hosts at the exporter on ${opts.exporterBase}`);
  if (out.added.length > 0)
    log(`added ${out.added.join(", ")} (with GPUs and ${days} day(s) of history)`);
  if (out.restored.length > 0) log(`restored ${out.restored.join(", ")}`);
  // a demo store from before issue 25 gets the demo's policies on its next start
  if ((await seedDemoPolicies(db)) > 0) log("added the demo's idle-release policies");
  if (out.retired.length > 0)
    log(`retired ${out.retired.join(", ")} (history kept, no longer scraped or alerted on)`);
  return out;
}
