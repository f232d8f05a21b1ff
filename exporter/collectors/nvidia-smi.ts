// nvidia-smi source. One long-lived `--query-gpu ... -lms <interval>` child streams GPU lines,
// a second one streams compute processes; MIG instances, virtualization mode and vGPU licence
// come from an occasional `-q -x` (+ `-L`) snapshot. Nothing is spawned per scrape. A watchdog
// kills the stream when no valid line came for 3 intervals; the supervisor restarts it with
// exponential backoff.

import { errorText, timed, type Host, type Source } from "../collect.ts";
import type { Attributor } from "../holders/attribute.ts";
import type { Logger } from "../log.ts";
import { Supervised, runOnce, type Line } from "../nvidia/child.ts";
import { APP_FIELDS, resolveFields } from "../nvidia/fields.ts";
import { parseComputeApps } from "../nvidia/parse-apps.ts";
import { parseHelpQueryGpu } from "../nvidia/parse-help.ts";
import { compileLayout, parseQueryLine, type QueryLayout } from "../nvidia/parse-query.ts";
import { detailsByUuid, parseGpuDetails } from "../nvidia/parse-vgpu.ts";
import { migReadings, parseListGpus, parseQueryXml } from "../nvidia/parse-xml.ts";

export interface NvidiaSmiOptions {
  path: string;
  intervalMs: number;
  /** one-shot commands (--help-query-gpu, -q -x, -L) are killed after this */
  commandTimeoutMs: number;
  migIntervalMs: number;
  /** time a fresh child gets to print its first line before the watchdog counts */
  startupGraceMs: number;
  backoffMaxMs: number;
  log: Logger;
  /** labels each process with its holder at collection time; off when undefined */
  attributor?: Attributor;
}

export class NvidiaSmiSource implements Source {
  readonly hosts: Host[];
  private readonly host: Host;
  private readonly query: Supervised;
  private readonly apps: Supervised;
  private readonly abort = new AbortController();
  private layout?: QueryLayout;
  private lastValidAt?: number;
  private lastMigAt = -Infinity;
  private mig?: Promise<unknown>;
  private reportedMissing = false;
  private startedAt = 0;
  private queryFailed = false;

  constructor(
    host: Host,
    private readonly opts: NvidiaSmiOptions,
  ) {
    this.host = host;
    this.hosts = [host];
    const backoff = {
      backoffInitialMs: Math.min(opts.intervalMs, 1000),
      backoffMaxMs: opts.backoffMaxMs,
    };
    const lms = ["--format=csv,noheader,nounits", "-lms", String(Math.round(opts.intervalMs))];
    this.query = new Supervised({
      ...backoff,
      command: opts.path,
      prepare: async () => [`--query-gpu=${(await this.discover()).join(",")}`, ...lms],
      onLines: (lines) => void this.onQueryLines(lines),
      onProblem: (msg) => {
        this.queryFailed = true;
        this.problem("nvidia_smi", msg);
      },
    });
    this.apps = new Supervised({
      ...backoff,
      command: opts.path,
      prepare: () => Promise.resolve([`--query-compute-apps=${APP_FIELDS.join(",")}`, ...lms]),
      onLines: (lines) => void this.onAppLines(lines),
      onProblem: (msg) => this.problem("nvidia_smi_processes", msg),
    });
  }

  start(): void {
    this.startedAt = Date.now();
    this.query.start();
    this.apps.start();
  }

  private problem(collector: string, msg: string): void {
    this.opts.log.limited(`${collector}:${msg}`, "warn", "nvidia-smi problem", { collector, msg });
  }

  /** Ask the driver which fields exist, so a missing one cannot make nvidia-smi refuse. */
  private async discover(): Promise<string[]> {
    const { path, commandTimeoutMs } = this.opts;
    const help = await runOnce(path, ["--help-query-gpu"], commandTimeoutMs, this.abort.signal);
    const { query, missing } = resolveFields(parseHelpQueryGpu(help.stdout));
    if (missing.length > 0 && !this.reportedMissing) {
      this.reportedMissing = true;
      this.opts.log.log("info", "driver lacks some fields; their series stay absent", {
        missing: missing.join(","),
      });
    }
    this.layout = compileLayout(query);
    return query;
  }

  private async onQueryLines(all: Line[]): Promise<void> {
    const lines = all.filter((l) => l.text.trim() !== "");
    if (lines.length === 0) return; // a separator between loops is not a collection
    const { state } = this.host;
    await timed(state, "nvidia_smi", this.opts.log, () => {
      const layout = this.layout;
      if (!layout) throw new Error("output before field discovery");
      let valid = 0;
      for (const line of lines) {
        const r = parseQueryLine(line.text, layout);
        if (typeof r === "string") {
          this.opts.log.limited("nvidia_smi:line", "warn", "skipping malformed line", { err: r });
          continue;
        }
        state.setGpu(r, line.at);
        this.lastValidAt = line.at;
        valid += 1;
      }
      if (valid === 0) throw new Error(`no valid line among ${lines.length}`);
      this.query.markHealthy();
    });
  }

  private async onAppLines(lines: Line[]): Promise<void> {
    const { state } = this.host;
    await timed(state, "nvidia_smi_processes", this.opts.log, async () => {
      const at = lines[lines.length - 1]?.at ?? Date.now();
      const { items, warnings } = parseComputeApps(lines.map((l) => l.text).join("\n"), APP_FIELDS);
      for (const w of warnings) {
        this.opts.log.limited("nvidia_smi_processes:line", "warn", "skipping malformed line", {
          err: w,
        });
      }
      await this.opts.attributor?.attribute(items);
      for (const p of items) state.upsertProcess(p, at);
      if (items.length === 0 && warnings.length > 0) throw new Error("no valid process line");
      this.apps.markHealthy();
    });
  }

  async tick(now: number): Promise<void> {
    const { state } = this.host;
    const { intervalMs, startupGraceMs } = this.opts;
    const hangAfter = 3 * intervalMs;
    const spawnedAt = this.query.spawnedAt;
    if (this.query.running && spawnedAt !== undefined) {
      const last = this.lastValidAt;
      const base = last !== undefined && last >= spawnedAt ? last : spawnedAt + startupGraceMs;
      if (now - base > hangAfter) {
        // The process stream cannot tell "hung" from "no processes"; a hung driver hangs both.
        this.query.restart(`no valid line for ${hangAfter} ms`);
        this.apps.restart("the GPU stream hung");
      }
    }
    const healthy =
      this.query.running && this.lastValidAt !== undefined && now - this.lastValidAt <= hangAfter;
    // Before the first line, "no data yet" is not a failure unless something went wrong.
    const starting =
      this.lastValidAt === undefined &&
      !this.queryFailed &&
      now - this.startedAt <= startupGraceMs + hangAfter;
    if (!healthy && !starting) state.setCollector("nvidia_smi", false);

    const appsUp = this.apps.running && now - (this.apps.spawnedAt ?? now) >= intervalMs;
    state.processesKnown = appsUp;
    if (this.apps.running || state.collectors.has("nvidia_smi_processes")) {
      state.setCollector("nvidia_smi_processes", this.apps.running);
    }
    state.prune(now);
    this.maybeSnapshot(now);
  }

  /**
   * -q -x is slow on big machines: at most once per migIntervalMs, and only while it has news:
   * MIG instances, a vGPU licence that can lapse, or a GPU whose virtualization mode is unknown.
   */
  private maybeSnapshot(now: number): void {
    if (this.mig || now - this.lastMigAt < this.opts.migIntervalMs) return;
    const view = this.host.state.view(now);
    const anyMig = view.gpus.some((g) => g.migEnabled);
    const licence = [...view.details.values()].some((d) => d.vgpuLicensed !== undefined);
    const unknown = view.gpus.some((g) => !view.details.has(g.uuid));
    if (!anyMig && !licence && !unknown) return;
    this.lastMigAt = now;
    const { path, commandTimeoutMs, log } = this.opts;
    const signal = this.abort.signal;
    // the MIG collector keeps its name; elsewhere the snapshot only reads details
    const collector = anyMig ? "nvidia_smi_mig" : "nvidia_smi_details";
    this.mig = timed(this.host.state, collector, log, async () => {
      const xml = await runOnce(path, ["-q", "-x"], commandTimeoutMs, signal);
      this.storeDetails(xml.stdout, view.gpus);
      if (!anyMig) return;
      const parsed = parseQueryXml(xml.stdout);
      for (const w of parsed.warnings)
        log.limited(`mig:${w}`, "warn", "nvidia-smi -q -x", { err: w });
      let profiles = new Map<string, Map<number, string>>();
      try {
        profiles = parseListGpus((await runOnce(path, ["-L"], commandTimeoutMs, signal)).stdout);
      } catch (err) {
        log.limited("mig:list", "warn", "nvidia-smi -L failed; MIG profiles unknown", {
          err: errorText(err),
        });
      }
      const uuids = parsed.items.map((g) => g.uuid);
      this.host.state.replaceMig(migReadings(parsed.items, profiles), Date.now(), uuids);
      const procs = parsed.items.flatMap((g) => g.processes);
      this.host.state.setProcessInstances(uuids, procs);
    }).finally(() => (this.mig = undefined));
  }

  /** Virtualization mode and vGPU licence; a GPU the snapshot misses gets an empty entry. */
  private storeDetails(xml: string, gpus: { uuid: string; pciBusId?: string }[]): void {
    const { items, warnings } = parseGpuDetails(xml);
    for (const w of warnings)
      this.opts.log.limited(`details:${w}`, "warn", "nvidia-smi -q -x", { err: w });
    const found = detailsByUuid(items, gpus);
    const at = Date.now();
    for (const g of gpus) this.host.state.setGpuDetails(g.uuid, found.get(g.uuid) ?? {}, at);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await Promise.all([this.query.close(), this.apps.close(), this.mig]);
  }
}
