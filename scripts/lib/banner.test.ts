import { describe, expect, it } from "vitest";
import { metricsLine, startBanner, storeLine, withoutCredentials } from "./banner.ts";

const base = { port: 3000, demo: false, demoHosts: 24, exporterPort: 9445 };

describe("start banner", () => {
  it("names the metrics source and the store, never a password", () => {
    const text = startBanner(
      {
        ...base,
        databaseUrl: "postgresql://gpufleet:s3cret@db:5432/gpufleet",
        prometheusUrl: "https://reader:hunter2@prom.internal:9090",
        prometheusAuth: "basic auth as reader",
      },
      "",
    );
    expect(text).toContain("metrics: Prometheus HTTP API at https://***@prom.internal:9090/");
    expect(text).toContain("basic auth as reader");
    expect(text).toContain("store: PostgreSQL postgresql://***@db:5432/gpufleet");
    expect(text).not.toMatch(/s3cret|hunter2/);
  });

  it("says what the embedded collector scrapes, or that it has nothing yet", () => {
    expect(metricsLine({ ...base, demo: true, databaseUrl: "" })).toBe(
      "metrics: embedded collector scraping the demo fleet's 24 simulated hosts (http://127.0.0.1:9445/targets.json)",
    );
    expect(
      metricsLine({ ...base, databaseUrl: "", targetsFile: "/etc/gpufleet/targets.json" }),
    ).toBe(
      "metrics: embedded collector scraping the exporters listed in /etc/gpufleet/targets.json",
    );
    expect(metricsLine({ ...base, databaseUrl: "" })).toMatch(/nothing to scrape yet/);
    expect(storeLine("file:./data/gpufleet.db")).toBe("store: SQLite file:./data/gpufleet.db");
    expect(withoutCredentials("nope")).toBe("(not a URL)");
  });

  it("says where the demo's mail goes, only when the demo runs a mailbox", () => {
    const text = startBanner({ ...base, demo: true, databaseUrl: "", mailboxPort: 2525 }, "");
    expect(text).toContain(
      "mail: idle alerts go to whoever holds the GPU; the demo catches them on smtp://127.0.0.1:2525 and saves them under data/demo-mail/",
    );
    expect(startBanner({ ...base, databaseUrl: "" }, "")).not.toContain("mail:");
  });
});
