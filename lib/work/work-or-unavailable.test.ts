import { describe, expect, it, vi } from "vitest";
import { workOrUnavailable } from "./page-data.ts";

// A page's measured-work panel: a failing metrics backend is logged and reported as unavailable
// (the page then says so), never thrown into the page and never swallowed without a word.

describe("workOrUnavailable", () => {
  it("passes the value through, and turns a failure into a logged 'unavailable'", async () => {
    expect(await workOrUnavailable("/costs", Promise.resolve(3))).toEqual({ ok: true, value: 3 });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await workOrUnavailable("/costs", Promise.reject(new Error("prometheus: 503")))).toEqual(
      { ok: false },
    );
    expect(log).toHaveBeenCalledWith("/costs: measured work unavailable: Error: prometheus: 503");
    log.mockRestore();
  });
});
