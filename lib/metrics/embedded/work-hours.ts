import "server-only";
import type { Db } from "../../db.ts";
import type { WorkUnit } from "../../../exporter/contract.ts";
import type { WorkHourRow } from "../source.ts";

/** The collector's WorkHour rows in [from, to) (written by lib/ingest/work-hours.ts). */
export async function embeddedWorkHours(db: Db, from: Date, to: Date): Promise<WorkHourRow[]> {
  const rows = await db.workHour.findMany({
    where: { hourStart: { gte: from, lt: to } },
    orderBy: [{ hostId: "asc" }, { hourStart: "asc" }],
    select: {
      hostId: true,
      hourStart: true,
      unit: true,
      modelName: true,
      job: true,
      source: true,
      units: true,
    },
  });
  return rows.map((r) => ({ ...r, unit: r.unit as WorkUnit }));
}
