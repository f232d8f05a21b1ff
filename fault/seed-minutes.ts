// Minute data for closed hours, as the embedded collector would have stored it: SEED_HOSTS hosts
// of SEED_GPUS GPUs each, priced from the shipped catalogue, every minute of `hours` hours before
// `before` (floored to the hour). Deterministic: utilization follows the minute and GPU index.
import type { Db } from "@/lib/db.ts";
import { floorHour } from "@/lib/ledger/job.ts";
import { installShippedCatalogue } from "@/lib/pricing/seed.ts";

export const SEED_HOSTS = 2;
export const SEED_GPUS = 2;
const HOUR = 3_600_000;

/** Seeds the store and returns the closed hours' starts, oldest first. */
export async function seedClosedHours(
  db: Db,
  before: Date,
  hours: number,
  hosts = SEED_HOSTS,
): Promise<Date[]> {
  await installShippedCatalogue(db);
  const first = floorHour(before.getTime()) - hours * HOUR;
  const minutes = Array.from({ length: hours * 60 }, (_, m) => new Date(first + m * 60_000));
  for (let h = 0; h < hosts; h++) {
    const host = await db.host.create({
      data: {
        hostname: `fault-${h}`,
        provider: "aws",
        instanceType: "p4d.24xlarge",
        region: "us-east-1",
        state: "up",
      },
    });
    const uuids = Array.from({ length: SEED_GPUS }, (_, g) => `GPU-fault-${h}-${g}`);
    await db.gpu.createMany({
      data: uuids.map((uuid, g) => ({
        hostId: host.id,
        uuid,
        index: g,
        name: "NVIDIA A100-SXM4-40GB",
        memoryTotalBytes: 40n * 1024n ** 3n,
      })),
    });
    await db.hostMinute.createMany({
      data: minutes.map((minuteStart) => ({
        hostId: host.id,
        minuteStart,
        samples: 4,
        upSamples: 4,
      })),
    });
    await db.gpuMinute.createMany({
      data: minutes.flatMap((minuteStart, m) =>
        uuids.map((gpuUuid, g) => ({
          hostId: host.id,
          gpuUuid,
          minuteStart,
          samples: 4,
          util: (m + g) % 7 === 0 ? 0 : 0.8,
          memUsedBytes: 10n * 1024n ** 3n,
          memTotalBytes: 40n * 1024n ** 3n,
          processes: 1,
        })),
      ),
    });
  }
  return Array.from({ length: hours }, (_, i) => new Date(first + i * HOUR));
}
