// Starts the exporter in-process from real command-line flags (simulated GPUs, one host) against
// a fake metadata service on 127.0.0.1, and reads gpu_host_info back from /metrics.

import { expect } from "vitest";
import { parseCli } from "../flags.ts";
import type { DetectConfig } from "../host/options.ts";
import { createLogger } from "../log.ts";
import { startExporter, type RunningExporter } from "../server.ts";
import type { FakeMetadata } from "./fake-metadata.ts";
import { sample } from "./helpers.ts";

export interface Started {
  e: RunningExporter;
  /** the exporter's log lines (logfmt) */
  lines: string[];
  scrape(): Promise<string>;
}

/** A fixed clock for "first seen" notice times: 2026-12-01T10:00:00Z. */
export const CLOCK_MS = Date.UTC(2026, 11, 1, 10, 0, 0);

/** Simulated GPUs unless `args` has --no-simulate (then give a --dcgm.url). */
export async function startWithFlags(
  args: string[],
  detect: Partial<DetectConfig> = {},
): Promise<Started> {
  const cli = parseCli(
    [
      ...(args.includes("--no-simulate") ? [] : ["--simulate"]),
      "--web.listen-address=127.0.0.1:0",
      // polls and refreshes happen when a test asks, not on a timer
      "--host.interruption.poll-interval=10m",
      "--host.detect.refresh-interval=1h",
      // the fakes answer on 127.0.0.1, but a loaded machine can take longer than the 500 ms
      // default to answer; a test that wants a timeout names its own
      ...(args.some((a) => a.startsWith("--host.detect.timeout"))
        ? []
        : ["--host.detect.timeout=5s"]),
      ...args,
    ],
    {},
  );
  if (cli.kind !== "run") throw new Error(`flags refused: ${JSON.stringify(cli)}`);
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l), now: () => CLOCK_MS });
  const e = await startExporter({
    ...cli.config,
    detect: { ...cli.config.detect, now: () => CLOCK_MS, ...detect },
    logger,
  });
  return {
    e,
    lines,
    scrape: async () => {
      const res = await fetch(`${e.url}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    },
  };
}

/** The labels of the gpu_host_info sample on /metrics. */
export function hostInfo(text: string): Record<string, string> {
  const line = text.split("\n").find((l) => l.startsWith("gpu_host_info{"));
  if (!line) throw new Error("no gpu_host_info sample");
  const labels: Record<string, string> = {};
  for (const m of line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1] ?? ""] = m[2] ?? "";
  return labels;
}

export interface Interruption {
  pending?: number;
  time?: number;
}

export function interruption(text: string): Interruption {
  return {
    pending: sample(text, "gpu_host_interruption_pending"),
    time: sample(text, "gpu_host_interruption_time_seconds"),
  };
}

/** Poll with no notice, with one announced for `at`, then withdrawn; the series each time. */
export async function noticeCycle(
  s: Started,
  fake: FakeMetadata,
  at: Date,
): Promise<{ before: Interruption; pending: Interruption; cleared: Interruption }> {
  const poll = async () => {
    await s.e.detection?.poll();
    return interruption(await s.scrape());
  };
  const before = await poll();
  fake.setNotice(at);
  const pending = await poll();
  fake.setNotice(undefined);
  const cleared = await poll();
  return { before, pending, cleared };
}

/** On a host that is not spot: a poll asks nothing and no interruption series exist. */
export async function expectNeverPolled(s: Started, fake: FakeMetadata): Promise<void> {
  await s.e.detection?.poll();
  await s.e.detection?.refresh();
  await s.e.detection?.poll();
  expect(fake.count(fake.noticePath)).toBe(0);
  const text = await s.scrape();
  expect(text).not.toContain("gpu_host_interruption_pending");
  expect(text).not.toContain("gpu_host_interruption_time_seconds");
}
