import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { safeNext } from "./next-path.ts";
import { PAGE_PERMISSIONS, ROLES, roleAllows, tokenAllows } from "./roles.ts";

// Every page checks the signed-in user's role on the server before rendering: a page file
// without a rule, or one that does not call requirePage with its own path, fails here.

const PUBLIC_PAGES = ["/sign-in", "/setup", "/keep/[token]"];

function pageFiles(dir = "app"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === "api" ? [] : pageFiles(p);
    return d.name === "page.tsx" ? [p] : [];
  });
}

describe("pages", () => {
  it("every page has a rule and enforces it with requirePage", () => {
    const seen: string[] = [];
    for (const f of pageFiles()) {
      const path = "/" + relative("app", f).replace(/\/?page\.tsx$/, "");
      seen.push(path);
      if (PUBLIC_PAGES.includes(path)) continue;
      expect(Object.keys(PAGE_PERMISSIONS), `${path} has no rule`).toContain(path);
      expect(readFileSync(f, "utf8"), `${f} must call requirePage("${path}")`).toContain(
        `requirePage("${path}"`,
      );
    }
    expect(seen.sort()).toEqual([...Object.keys(PAGE_PERMISSIONS), ...PUBLIC_PAGES].sort());
  });

  it("roles are cumulative and match the issue's list", () => {
    const pages = (role: (typeof ROLES)[number]) =>
      Object.entries(PAGE_PERMISSIONS)
        .filter(([, p]) => roleAllows(role, p))
        .map(([page]) => page);
    // "My GPUs" (issue 24) is every signed-in person's
    expect(pages("viewer")).toEqual(["/", "/instances/[id]", "/my-gpus"]);
    expect(pages("operator")).toEqual([
      "/",
      "/instances/[id]",
      "/my-gpus",
      "/alerts",
      "/recommendations",
      "/compare",
    ]);
    expect(pages("finance")).toEqual([
      "/",
      "/instances/[id]",
      "/my-gpus",
      "/alerts",
      "/recommendations",
      "/costs",
      "/costs/reconcile",
      "/compare",
      "/settings",
      "/settings/pricing",
    ]);
    expect(pages("admin")).toEqual(Object.keys(PAGE_PERMISSIONS));
    expect(tokenAllows("read", "costs:read")).toBe(true);
    expect(tokenAllows("read", "budgets:write")).toBe(false);
    expect(tokenAllows("write", "users:admin")).toBe(false);
  });

  it("coming back after sign-in never leaves the site", () => {
    expect(safeNext("/costs?month=2026-10")).toBe("/costs?month=2026-10");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil", "", null, "costs"]) {
      expect(safeNext(bad)).toBe("/");
    }
  });
});
