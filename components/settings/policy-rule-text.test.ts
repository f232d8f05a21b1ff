import { describe, expect, it } from "vitest";
import { policyRuleText } from "./policy-rule-text.ts";

const base = {
  idleHours: 24,
  action: "stop" as const,
  warnAt: [0.5, 0.9],
  graceMinutes: 60,
  target: "host" as const,
  scale: null,
};

describe("policyRuleText", () => {
  it("says an idle-release and a run-time rule with their warnings", () => {
    expect(policyRuleText({ ...base, kind: "idle_release" })).toBe(
      "idle 24 h → stop; warn at 50 %, 90 %; grace 60 min",
    );
    expect(
      policyRuleText({ ...base, kind: "max_runtime", target: "job", action: "cancel_job" }),
    ).toBe("each job running 24 h → cancel job; warn at 50 %, 90 %; grace 60 min");
  });

  it("says a scale rule by its marks, windows, cool-down and size, not an idle rule", () => {
    const scale = {
      highMark: 0.8,
      highMinutes: 15,
      lowMark: 0.2,
      lowMinutes: 60,
      cooldownMinutes: 60,
      min: 1,
      max: 4,
    };
    expect(policyRuleText({ ...base, kind: "scale", scale })).toBe(
      "≥ 80 % for 15 min → scale out by 1; ≤ 20 % for 60 min → scale in by 1; cool-down 60 min; 1–4 hosts",
    );
  });
});
