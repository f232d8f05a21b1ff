import { describe, expect, it } from "vitest";
import type { Actor } from "./actor.ts";
import { budgetInScope, inTeamScope, scopeKey, singleTeam, teamScope } from "./scope.ts";

const user = (teams: string[]): Actor => ({
  kind: "user",
  id: "u1",
  email: "u@test.local",
  name: "u",
  role: "finance",
  teams,
});

describe("team scope", () => {
  it("limits a user with teams, never an unlimited user or a token", () => {
    expect(teamScope(user(["research", "infra", "research"]))).toEqual(["infra", "research"]);
    expect(teamScope(user([]))).toBeNull();
    expect(teamScope({ kind: "token", id: "t", name: "ci", scope: "write" })).toBeNull();
  });

  it("sees a team only within the scope; a missing team only when unlimited", () => {
    expect(inTeamScope(null, "x")).toBe(true);
    expect(inTeamScope(null, null)).toBe(true);
    expect(inTeamScope(["research"], "research")).toBe(true);
    expect(inTeamScope(["research"], "infra")).toBe(false);
    expect(inTeamScope(["research"], null)).toBe(false);
  });

  it("budgets: only team budgets of their teams; the one team's budget stands for their spend", () => {
    expect(budgetInScope(null, { scopeKind: "fleet", scopeValue: "" })).toBe(true);
    expect(budgetInScope(["research"], { scopeKind: "team", scopeValue: "research" })).toBe(true);
    expect(budgetInScope(["research"], { scopeKind: "team", scopeValue: "infra" })).toBe(false);
    expect(budgetInScope(["research"], { scopeKind: "fleet", scopeValue: "" })).toBe(false);
    expect(budgetInScope(["research"], { scopeKind: "project", scopeValue: "research" })).toBe(
      false,
    );
    expect(singleTeam(["research"])).toBe("research");
    expect(singleTeam(["a", "b"])).toBeNull();
    expect(singleTeam(null)).toBeNull();
  });

  it("keys scopes independently of order", () => {
    expect(scopeKey(["b", "a"])).toBe(scopeKey(["a", "b"]));
    expect(scopeKey(null)).not.toBe(scopeKey([]));
  });
});
