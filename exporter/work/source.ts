// Adds the work collectors (textfile, relay) to a source: they run in the same collection tick as
// the GPUs, in parallel with them, and write into host 0 (the machine the exporter runs on).

import { timed, type Source } from "../collect.ts";
import type { Logger } from "../log.ts";
import type { WorkConfig } from "./config.ts";
import { WorkRelay } from "./relay.ts";
import { TextfileCollector } from "./textfile.ts";

export function withWork(inner: Source, work: WorkConfig, intervalMs: number, log: Logger): Source {
  if (work.textfileDir === undefined && work.scrape.length === 0) return inner;
  const host = inner.hosts[0];
  if (!host) return inner;
  const abort = new AbortController();
  const textfile =
    work.textfileDir === undefined ? undefined : new TextfileCollector(work.textfileDir);
  const relay =
    work.scrape.length === 0
      ? undefined
      : new WorkRelay({
          targets: work.scrape,
          timeoutMs: Math.min(work.scrapeTimeoutMs, Math.max(intervalMs, 100)),
          signal: abort.signal,
        });
  const collectWork = async (): Promise<void> => {
    const { state } = host;
    await Promise.all([
      textfile &&
        timed(state, "textfile", log, async () => {
          try {
            state.setWork("textfile", await textfile.collect());
          } catch (err) {
            // the directory is gone or unreadable: nothing of it is served, and the collector says so
            textfile.errors.add("read_dir");
            state.setWork("textfile", {
              collector: "textfile",
              series: [],
              errors: textfile.errors.counts,
              files: [],
            });
            throw err;
          }
        }),
      relay &&
        timed(state, "work_relay", log, async () => state.setWork("relay", await relay.collect())),
    ]);
  };
  return {
    hosts: inner.hosts,
    start: () => inner.start(),
    async tick(now: number): Promise<void> {
      await Promise.all([inner.tick(now), collectWork()]);
    },
    async close(): Promise<void> {
      abort.abort();
      await inner.close();
    },
  };
}
