import { describe, expect, it } from "vitest";
import { auditUrl, nextAuditCursor } from "@/lib/queries/admin.ts";
import {
  baseUrl,
  compactDetail,
  curlExample,
  foldListErrors,
  parseTeamsText,
  prometheusScrapeExample,
  roleName,
  teamsText,
} from "./admin-bits.ts";

describe("admin helpers", () => {
  it("parses comma-separated teams", () => {
    expect(parseTeamsText("")).toEqual([]);
    expect(parseTeamsText("  , ,")).toEqual([]);
    expect(parseTeamsText("ml, research,, ml , infra team")).toEqual([
      "ml",
      "research",
      "infra team",
    ]);
    expect(teamsText(["ml", "research"])).toBe("ml, research");
    expect(parseTeamsText(teamsText(["a", "b"]))).toEqual(["a", "b"]);
  });

  it("names roles without their description", () => {
    expect(roleName("viewer")).toBe("Viewer");
    expect(roleName("admin")).toBe("Admin");
  });

  it("writes audit details on one line", () => {
    expect(compactDetail({})).toBe("");
    expect(compactDetail({ role: { from: "viewer", to: "admin" } })).toBe(
      '{"role":{"from":"viewer","to":"admin"}}',
    );
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(compactDetail(loop)).toBe("(unreadable)");
  });

  it("reports a list field's item errors on the field", () => {
    expect(foldListErrors({ "teams.1": "too long" }, "teams")).toEqual({
      "teams.1": "too long",
      teams: "too long",
    });
    expect(foldListErrors({ teams: "a", "teams.0": "b" }, "teams").teams).toBe("a");
    expect(foldListErrors({ email: "x" }, "teams")).toEqual({ email: "x" });
  });

  it("builds token examples from the app's origin", () => {
    expect(baseUrl("https://fleet.corp:8443/")).toBe("https://fleet.corp:8443");
    expect(baseUrl("")).toBe("https://gpufleet.example.com");
    expect(curlExample("http://localhost:3000", "gft_abc")).toBe(
      'curl -H "Authorization: Bearer gft_abc" http://localhost:3000/api/fleet',
    );
    const yaml = prometheusScrapeExample("http://localhost:3000", "gft_abc");
    expect(yaml).toContain("metrics_path: /api/metrics");
    expect(yaml).toContain("scheme: http\n");
    expect(yaml).toContain("authorization:\n      credentials: gft_abc");
    expect(yaml).toContain('targets: ["localhost:3000"]');
    expect(prometheusScrapeExample("", "t")).toContain('targets: ["gpufleet.example.com"]');
  });

  it("pages the audit log by the last entry's time and id", () => {
    expect(auditUrl({ action: "", actor: "" })).toBe("/api/audit?limit=50");
    expect(auditUrl({ action: " users. ", actor: "a@b.c" }, "2026-01-01T00:00:00.000Z")).toBe(
      "/api/audit?limit=50&before=2026-01-01T00%3A00%3A00.000Z&action=users.&actor=a%40b.c",
    );
    const entries = [
      { at: "2026-01-02T00:00:00.000Z", id: "b" },
      { at: "2026-01-01T00:00:00.000Z", id: "a" },
    ];
    const cursor = nextAuditCursor({ entries }, 2);
    expect(cursor).toBe("2026-01-01T00:00:00.000Z|a");
    expect(auditUrl({ action: "", actor: "" }, cursor)).toBe(
      "/api/audit?limit=50&before=2026-01-01T00%3A00%3A00.000Z&beforeId=a",
    );
    expect(nextAuditCursor({ entries }, 3)).toBeUndefined();
    expect(nextAuditCursor({ entries: [] }, 0)).toBeUndefined();
  });
});
