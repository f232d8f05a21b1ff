import { describe, expect, it } from "vitest";
import { actAt, hostInPolicyScope, labelMatches, optedOut, warningsDue } from "./policy-rules.ts";

// The pure rules of an idle-release policy: scope, opt-out, warning points, when it acts.

const H = 3_600_000;
const T = new Date("2026-11-20T00:00:00Z");
const policy = {
  id: "p",
  name: "p",
  kind: "idle_release",
  mode: "active",
  action: "stop",
  idleHours: 24,
  warnAt: [0.5, 0.9],
  graceMinutes: 60,
  scopeKind: "fleet",
  scopeValue: "",
  optOutLabel: "gpufleet.io/keep=true",
};
const host = (labels: Record<string, string> = {}) => ({ team: "ml", project: "x", labels });

describe("policy rules", () => {
  it("opt-out label, also in its Prometheus-sanitized form", () => {
    expect(optedOut(policy, host({ "gpufleet.io/keep": "true" }))).toBe(true);
    expect(optedOut(policy, host({ gpufleet_io_keep: "true" }))).toBe(true);
    expect(optedOut(policy, host({ gpufleet_io_keep: "false" }))).toBe(false);
    expect(optedOut(policy, host())).toBe(false);
    expect(labelMatches({ a: "b" }, "=b")).toBe(false);
  });

  it("scopes by fleet, team, project and label", () => {
    expect(hostInPolicyScope({ ...policy, scopeKind: "team", scopeValue: "ml" }, host())).toBe(
      true,
    );
    expect(hostInPolicyScope({ ...policy, scopeKind: "team", scopeValue: "cv" }, host())).toBe(
      false,
    );
    expect(hostInPolicyScope({ ...policy, scopeKind: "project", scopeValue: "x" }, host())).toBe(
      true,
    );
    const byLabel = { ...policy, scopeKind: "label", scopeValue: "pool=spare" };
    expect(hostInPolicyScope(byLabel, host({ pool: "spare" }))).toBe(true);
    expect(hostInPolicyScope(byLabel, host({ pool: "main" }))).toBe(false);
  });

  it("warns at 50 % and 90 % of N, and a keep holds further warnings back", () => {
    const e = { idleSince: T, warnings: 0, lastWarnAt: null, keepUntil: null };
    expect(warningsDue(policy, e, new Date(T.getTime() + 11 * H))).toBe(0);
    expect(warningsDue(policy, e, new Date(T.getTime() + 12 * H))).toBe(1);
    expect(warningsDue(policy, e, new Date(T.getTime() + 22 * H))).toBe(2);
    const kept = { ...e, warnings: 1, keepUntil: new Date(T.getTime() + 30 * H) };
    expect(warningsDue(policy, kept, new Date(T.getTime() + 22 * H))).toBe(1);
  });

  it("acts at idle + N, or the last warning + grace, or the end of a keep, whichever is last", () => {
    const e = {
      idleSince: T,
      warnings: 2,
      lastWarnAt: new Date(T.getTime() + 23.5 * H),
      keepUntil: null,
    };
    expect(actAt(policy, e)).toEqual(new Date(T.getTime() + 24.5 * H));
    expect(actAt(policy, { ...e, lastWarnAt: new Date(T.getTime() + 21.6 * H) })).toEqual(
      new Date(T.getTime() + 24 * H),
    );
    expect(actAt(policy, { ...e, keepUntil: new Date(T.getTime() + 30 * H) })).toEqual(
      new Date(T.getTime() + 30 * H),
    );
  });
});
