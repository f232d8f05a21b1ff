import { describe, expect, it } from "vitest";
import { filtersFromParams, paramsFromFilters } from "./filters.ts";

describe("alert filters in the URL", () => {
  it("reads known values and ignores unknown ones", () => {
    expect(
      filtersFromParams(new URLSearchParams("state=resolved&kind=idle&team=research")),
    ).toEqual({
      state: "resolved",
      kind: "idle",
      team: "research",
    });
    expect(filtersFromParams(new URLSearchParams("state=bogus&kind=nope&team="))).toEqual({
      state: "open",
    });
  });
  it("round-trips and keeps other parameters", () => {
    const p = paramsFromFilters(
      { state: "open", kind: "budget", hostId: "h1" },
      new URLSearchParams("alert=a1&state=all"),
    );
    expect(p.toString()).toBe("alert=a1&kind=budget&hostId=h1");
    expect(filtersFromParams(p)).toEqual({ state: "open", kind: "budget", hostId: "h1" });
  });
});
