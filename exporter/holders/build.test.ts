import { describe, expect, it } from "vitest";
import { HOLDERS_DEFAULTS } from "../config.ts";
import type { Logger } from "../log.ts";
import type { ProcessReading } from "../readings.ts";
import { fakeDir } from "../test/fake-host.ts";
import { buildAttributor } from "./build.ts";

function recording(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    log: { log: (level, msg) => lines.push(`${level} ${msg}`), limited: () => {} },
  };
}

describe("buildAttributor", () => {
  it("says at start when --path.procfs is not a procfs (a container without the mount)", () => {
    const { log, lines } = recording();
    buildAttributor({ ...HOLDERS_DEFAULTS, procfs: fakeDir("not-proc-") }, log);
    expect(lines).toEqual([
      "warn --path.procfs is not a procfs: every process will read as unknown",
    ]);
  });

  it("stays quiet on the real /proc and labels an unreadable pid unknown", async () => {
    const { log, lines } = recording();
    const a = buildAttributor(HOLDERS_DEFAULTS, log);
    expect(lines).toEqual([]);
    const procs: ProcessReading[] = [{ gpuUuid: "GPU-x", pid: 2 ** 30, processName: "gone" }];
    await a.attribute(procs);
    expect(procs[0]?.holder).toEqual({ user: "unknown" });
  });
});
