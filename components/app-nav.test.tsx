import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { ROLES } from "@/lib/auth/roles.ts";
import { AppNav } from "./app-nav.tsx";

vi.mock("next/navigation", () => ({ usePathname: () => "/costs/reconcile" }));

const linksOf = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);

describe("AppNav (links chosen on the server, the current one marked in the browser)", () => {
  it("links only the pages a role may open", () => {
    expect(linksOf(renderToString(<AppNav role="viewer" />))).toEqual(["/", "/my-gpus"]);
    expect(linksOf(renderToString(<AppNav role="admin" />))).toEqual([
      "/",
      "/my-gpus",
      "/costs",
      "/compare",
      "/alerts",
      "/recommendations",
      "/settings",
      "/admin",
    ]);
    // roles are cumulative: no role sees fewer links than the one below it
    const counts = ROLES.map((r) => linksOf(renderToString(<AppNav role={r} />)).length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it("marks the section of the current page, and only that one", () => {
    const html = renderToString(<AppNav role="admin" />);
    expect(html).toContain('<a aria-current="page" href="/costs">Costs</a>');
    expect(html.match(/aria-current/g)).toHaveLength(1);
  });
});
