import { describe, expect, it } from "vitest";
import { ruleInputSchema } from "@/lib/zod/schemas/rule.ts";
import { initial, params } from "./rule-form-values.ts";

describe("rule form values", () => {
  it("turns typed percentages into ratios and leaves empty fields to the defaults", () => {
    const v = { ...initial(null), utilThresholdPct: "3", durationMinutes: "45", heldMemPct: "" };
    expect(params("idle", v)).toEqual({
      utilThreshold: 0.03,
      durationMinutes: 45,
      notify: "held_and_empty",
    });
    const parsed = ruleInputSchema.parse({ name: "x", kind: "idle", params: params("idle", v) });
    expect(parsed.params).toMatchObject({
      utilThreshold: 0.03,
      durationMinutes: 45,
      heldMemRatio: 0.01,
    });
  });

  it("round-trips a stored rule through the form", () => {
    const v = initial({
      id: "r",
      name: "Hot",
      kind: "throttle",
      enabled: true,
      scopeKind: "team",
      scopeValue: "vision",
      params: { classes: ["thermal"], minRatio: 0.9, durationMinutes: 10 },
      excludeLabels: { env: "dev" },
      cooldownMinutes: 30,
      openAlerts: 0,
      createdAt: "2026-11-29T00:00:00Z",
      updatedAt: "2026-11-29T00:00:00Z",
    });
    expect(v).toMatchObject({
      excludeLabels: "env=dev",
      minRatioPct: "90",
      classes: "thermal",
      cooldownMinutes: "30",
    });
    expect(params("throttle", v)).toEqual({
      classes: ["thermal"],
      minRatio: 0.9,
      durationMinutes: 10,
    });
  });
});
