import { describe, expect, it } from "vitest";
import { parseCli } from "../flags.ts";

const run = (argv: string[], env: Record<string, string> = {}) => parseCli(argv, env);

describe("work flags", () => {
  it("parses the textfile directory, repeated scrape targets, timeout and allowed hosts", () => {
    const r = run([
      "--collector.textfile.directory=/var/lib/gpufleet/textfile",
      "--work.scrape=http://127.0.0.1:8000/metrics",
      "--work.scrape=http://localhost:30000/metrics",
      "--work.scrape=http://inference.local:8002/metrics",
      "--work.scrape.allow-host=inference.local",
      "--work.scrape.timeout=750ms",
    ]);
    if (r.kind !== "run") throw new Error(JSON.stringify(r));
    expect(r.config.work).toEqual({
      textfileDir: "/var/lib/gpufleet/textfile",
      scrape: [
        "http://127.0.0.1:8000/metrics",
        "http://localhost:30000/metrics",
        "http://inference.local:8002/metrics",
      ],
      scrapeTimeoutMs: 750,
      allowHosts: ["inference.local"],
    });
  });

  it("reads the environment (comma-separated lists); flags win", () => {
    const r = run([], {
      GPU_EXPORTER_COLLECTOR_TEXTFILE_DIRECTORY: "/tf",
      GPU_EXPORTER_WORK_SCRAPE: "http://127.0.0.1:8000/metrics, http://[::1]:3000/metrics",
    });
    if (r.kind !== "run") throw new Error(JSON.stringify(r));
    expect(r.config.work.textfileDir).toBe("/tf");
    expect(r.config.work.scrape).toEqual([
      "http://127.0.0.1:8000/metrics",
      "http://[::1]:3000/metrics",
    ]);
    const f = run(["--work.scrape=http://127.0.0.2:1/metrics"], {
      GPU_EXPORTER_WORK_SCRAPE: "http://127.0.0.1:8000/metrics",
    });
    expect(f.kind === "run" && f.config.work.scrape).toEqual(["http://127.0.0.2:1/metrics"]);
  });

  it("refuses non-loopback targets unless allowed, bad URLs, credentials and duplicates", () => {
    const error = (argv: string[]) => {
      const r = run(argv);
      return r.kind === "error" ? r.message : `no error (${r.kind})`;
    };
    expect(error(["--work.scrape=http://10.0.0.5:8000/metrics"])).toMatch(
      /10\.0\.0\.5 is not loopback; allow it with --work\.scrape\.allow-host=10\.0\.0\.5/,
    );
    expect(error(["--work.scrape=ftp://127.0.0.1/metrics"])).toMatch(/invalid --work.scrape/);
    expect(error(["--work.scrape=http://u:p@127.0.0.1:8000/metrics"])).toMatch(/credentials/);
    expect(
      error([
        "--work.scrape=http://127.0.0.1:8000/metrics",
        "--work.scrape=http://127.0.0.1:8000/metrics",
      ]),
    ).toMatch(/given twice/);
    expect(error(["--work.scrape.timeout=0s"])).toMatch(/timeout must be positive/);
  });

  it("documents the flags in --help", () => {
    const r = run(["--help"]);
    if (r.kind !== "help") throw new Error(r.kind);
    expect(r.text).toContain("--collector.textfile.directory=VALUE");
    expect(r.text).toContain("--work.scrape=URL");
    expect(r.text).toContain("--work.scrape.allow-host=HOST");
    expect(r.text).toContain("Env: GPU_EXPORTER_WORK_SCRAPE_TIMEOUT.");
    expect(r.text).toContain("--host.label=KEY=VALUE");
  });
});
