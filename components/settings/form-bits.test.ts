import { describe, expect, it } from "vitest";
import { budgetInputSchema } from "@/lib/zod/schemas/budget.ts";
import {
  labelsText,
  numberOrUndefined,
  parseLabels,
  parseNumberList,
  zodErrors,
} from "./form-bits.tsx";

describe("settings form helpers", () => {
  it("parses thresholds and labels as typed", () => {
    expect(parseNumberList("50, 80 100")).toEqual([50, 80, 100]);
    expect(parseNumberList("50, x")[1]).toBeNaN();
    expect(parseLabels("env=dev, interruptible = true")).toEqual({
      env: "dev",
      interruptible: "true",
    });
    expect(parseLabels("nope")).toBeNull();
    expect(labelsText({ env: "dev", a: "b" })).toBe("env=dev, a=b");
    expect(numberOrUndefined(" ")).toBeUndefined();
    expect(numberOrUndefined("30")).toBe(30);
  });

  it("maps the API's zod issues to the form's fields", () => {
    const r = budgetInputSchema.safeParse({
      name: "",
      scopeKind: "team",
      scopeValue: "",
      amount: "12,000",
      thresholds: [50, Number.NaN],
    });
    if (r.success) throw new Error("should fail");
    const errs = zodErrors(r.error);
    expect(errs.name).toBe("name is required");
    expect(errs.amount).toBe("amount in dollars, e.g. 12000 or 12000.50");
    expect(errs["thresholds.1"]).toBe("a percentage");
  });
});
