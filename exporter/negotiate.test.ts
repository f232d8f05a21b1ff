import { describe, expect, it } from "vitest";
import { acceptsGzip, negotiateFormat } from "./negotiate.ts";

describe("content negotiation", () => {
  it("gives OpenMetrics to scrapers that prefer it, text otherwise", () => {
    // Prometheus 2.x's default Accept header
    const prometheus =
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    expect(negotiateFormat(prometheus)).toBe("openmetrics");
    expect(negotiateFormat("application/openmetrics-text; version=0.0.1")).toBe("openmetrics");
    expect(negotiateFormat(undefined)).toBe("text");
    expect(negotiateFormat("")).toBe("text");
    expect(negotiateFormat("*/*")).toBe("text");
    expect(negotiateFormat("text/plain;version=0.0.4")).toBe("text");
    // text preferred by q, or first at an equal q
    expect(negotiateFormat("application/openmetrics-text;q=0.4,text/plain;q=0.9")).toBe("text");
    expect(negotiateFormat("text/plain,application/openmetrics-text")).toBe("text");
    // refused, or a version prom-client does not write
    expect(negotiateFormat("application/openmetrics-text;q=0")).toBe("text");
    expect(negotiateFormat("application/openmetrics-text;version=2.0.0")).toBe("text");
  });

  it("gzips only when Accept-Encoding allows it", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("gzip, deflate, br")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8, *;q=0.1")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("*;q=0.5, gzip;q=0")).toBe(false);
  });
});
