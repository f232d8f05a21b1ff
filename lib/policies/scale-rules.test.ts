import { describe, expect, it } from "vitest";
import { scaleSettingsSchema } from "../zod/schemas/policy.ts";
import { decideScale, poolOf } from "./scale-rules.ts";

const S = scaleSettingsSchema.parse({ min: 1, max: 3 });
const NOW = new Date("2026-11-20T12:00:00Z");
const ago = (min: number) => new Date(NOW.getTime() - min * 60_000);

describe("scale rules", () => {
  it("has the issue's defaults", () => {
    expect(scaleSettingsSchema.parse({})).toMatchObject({
      highMark: 0.8,
      highMinutes: 15,
      lowMark: 0.2,
      lowMinutes: 60,
      cooldownMinutes: 10,
    });
    expect(scaleSettingsSchema.safeParse({ lowMark: 0.9, highMark: 0.8 }).success).toBe(false);
    expect(scaleSettingsSchema.safeParse({ min: 4, max: 3 }).success).toBe(false);
  });

  it("pools by the autoscaling group label, else instance type and team", () => {
    const h = { instanceType: "p4d.24xlarge", team: "research" };
    expect(poolOf({ ...h, labels: { "gpufleet.io/asg": "train" } })).toEqual({
      key: "asg:train",
      group: "train",
    });
    expect(poolOf({ ...h, labels: { gpufleet_io_asg: "train" } }).group).toBe("train");
    expect(poolOf({ ...h, labels: {} })).toEqual({
      key: "type:p4d.24xlarge|team:research",
      group: null,
    });
  });

  it("scales out a sustained busy pool, not a briefly busy one, and never past max", () => {
    const busy = { size: 2, highShare: 1, aboveLowShare: 1 };
    expect(decideScale(S, busy, null, NOW)).toEqual({
      direction: "out",
      share: 1,
      fromSize: 2,
      toSize: 3,
    });
    expect(decideScale(S, { ...busy, highShare: 0.5 }, null, NOW)).toBeNull();
    expect(decideScale(S, { ...busy, size: 3 }, null, NOW)).toBeNull();
    expect(decideScale(S, { ...busy, highShare: null, aboveLowShare: null }, null, NOW)).toBeNull();
  });

  it("scales in a pool idle below the low mark, never under min", () => {
    const idle = { size: 2, highShare: 0, aboveLowShare: 0.05 };
    expect(decideScale(S, idle, null, NOW)).toMatchObject({ direction: "in", toSize: 1 });
    expect(decideScale(S, { ...idle, size: 1 }, null, NOW)).toBeNull();
    expect(decideScale(S, { ...idle, aboveLowShare: 0.5 }, null, NOW)).toBeNull();
  });

  it("waits out the cool-down after the last signal", () => {
    const busy = { size: 1, highShare: 1, aboveLowShare: 1 };
    expect(decideScale(S, busy, ago(9), NOW)).toBeNull();
    expect(decideScale(S, busy, ago(10), NOW)).toMatchObject({ direction: "out", toSize: 2 });
  });
});
