import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORK_COUNTERS, WORK_METRIC } from "../../../exporter/contract.ts";
import { HOUR_MS } from "../../core/time.ts";
import type { Db } from "../../db.ts";
import { discoverFromPrometheus } from "../../ingest/discover-prometheus.ts";
import { exposition, type SimHost } from "../../testing/holder-hosts.ts";
import {
  hasPrometheus,
  startPrometheus,
  type RunningPrometheus,
} from "../../testing/prometheus.ts";
import { makeTestDb } from "../../testing/test-db.ts";
import type { WorkHourRow } from "../source.ts";
import { createPromClient } from "./api.ts";
import { createPrometheusSource } from "./source.ts";

// Work counters through a real Prometheus (issue 28): the Prometheus source's workHours over what
// a real Prometheus scraped from (1) two exporter hosts, one of which relays its vLLM server as the
// exporter's normalised WORK_METRIC, and (2) two inference servers' own /metrics (the real vLLM
// and SGLang captures, counters growing on every scrape), tied to their hosts by a `hostname`
// target label. The vLLM server is the one host 1's exporter already relays: it must not be
// counted twice. Skipped where no prometheus binary is installed.

const FIXTURES = join(import.meta.dirname, "../../../exporter/test/fixtures/work");
const VLLM_MODEL = "Qwen/Qwen3-0.6B";
const SGLANG_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const RELAY_JOB = "127.0.0.1:8000";

function simHost(id: number, hostname: string): SimHost {
  return {
    id,
    hostname,
    owner: null,
    team: "ml",
    gpus: [{ index: 0, uuid: `GPU-work-${id}`, util: 0.9, user: "alice" }],
  };
}

/** A server's capture with every work counter raised by `bump` × (its line number + 1). */
function grown(capture: string, bump: number): string {
  const names = new Set(WORK_COUNTERS.map((c) => c.name));
  return capture
    .split("\n")
    .map((line, i) => {
      const m = /^([^{\s#]+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
      if (!m?.[1] || !m[3] || !names.has(m[1])) return line;
      return `${m[1]}${m[2] ?? ""} ${Number(m[3]) + bump * (i + 1)}`;
    })
    .join("\n");
}

interface Served {
  target: string;
  close(): Promise<void>;
}

/** One HTTP server on 127.0.0.1 (its own port, so each target is its own `instance`). */
async function serve(body: (scrape: number) => string): Promise<Served> {
  let scrapes = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    scrapes += 1;
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    res.end(body(scrapes));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (typeof addr !== "object" || !addr) throw new Error("no port");
  return {
    target: `127.0.0.1:${addr.port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe.skipIf(!hasPrometheus)("work hours from a real Prometheus", () => {
  let db: Db;
  let prom: RunningPrometheus;
  const servers: Served[] = [];
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    db = makeTestDb().db;
    const vllm = readFileSync(join(FIXTURES, "vllm-qwen3-0.6b.prom"), "utf8");
    const sglang = readFileSync(join(FIXTURES, "sglang-llama-3.1-8b.prom"), "utf8");
    // host 1's exporter relays its vLLM server: the normalised counter, growing per scrape
    const relayed = (n: number) =>
      `${exposition(simHost(1, "work-1"))}# TYPE ${WORK_METRIC} counter\n` +
      `${WORK_METRIC}{unit="output_tokens",model_name="${VLLM_MODEL}",job="${RELAY_JOB}",source="vllm"} ${1000 + 250 * n}\n`;
    const h1 = await serve(relayed);
    const h2 = await serve(() => exposition(simHost(2, "work-2")));
    const v = await serve((n) => grown(vllm, n));
    const s = await serve((n) => grown(sglang, n));
    servers.push(h1, h2, v, s);
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-work-prom-"));
    const targetsFile = join(dir, "targets.json");
    writeFileSync(
      targetsFile,
      JSON.stringify([
        { targets: [h1.target, h2.target], labels: {} },
        { targets: [v.target], labels: { hostname: "work-1" } },
        { targets: [s.target], labels: { hostname: "work-2" } },
      ]),
    );
    prom = await startPrometheus({ targetFiles: [targetsFile], scrapeInterval: "1s" });
    // wait for data, not a fixed time: every target needs 10 successful scrapes in the last minute
    const client = createPromClient(prom.url);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const counts = await client.query("sum_over_time(up[60s])");
      if (counts.length === servers.length && counts.every((c) => Number(c.value[1]) >= 10)) break;
      if (Date.now() > deadline)
        throw new Error(`Prometheus has too few scrapes: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await discoverFromPrometheus(db, client);
  }, 150_000);
  afterAll(async () => {
    await prom?.stop();
    for (const s of servers) await s.close();
    await db?.$disconnect();
  });

  it("counts each host's work by unit and model, a relayed server once", async () => {
    const ids = new Map(
      (await db.host.findMany({ select: { id: true, hostname: true } })).map((h) => [
        h.hostname,
        h.id,
      ]),
    );
    const host1 = ids.get("work-1");
    const host2 = ids.get("work-2");
    expect(host1).toBeDefined();
    expect(host2).toBeDefined();
    const source = createPrometheusSource(db, prom.url);
    // the hours the data fell in: from the hour the test started to the one now ends (two where
    // the run crosses an hour's edge); the rows are summed over them
    const from = new Date(Math.floor(started / HOUR_MS) * HOUR_MS);
    const total = (rows: WorkHourRow[], hostId: string | undefined, unit: string) =>
      rows.filter((r) => r.hostId === hostId && r.unit === unit).reduce((a, r) => a + r.units, 0);
    let rows: WorkHourRow[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      const to = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS + HOUR_MS);
      rows = await source.workHours(from, to);
      const ready =
        total(rows, host1, "output_tokens") > 0 &&
        total(rows, host2, "output_tokens") > 0 &&
        total(rows, host2, "prompt_tokens") > 0;
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`no work counted: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    for (const r of rows) {
      expect(r.hourStart.getTime() % HOUR_MS).toBe(0);
      expect(r.hourStart.getTime()).toBeGreaterThanOrEqual(from.getTime());
      expect(r.units).toBeGreaterThanOrEqual(0);
    }
    // the vLLM server's own counters are in Prometheus, growing and labelled with host 1: leaving
    // them out below is the relay rule, not a failed join
    const raw = await createPromClient(prom.url).query(
      `increase(vllm:prompt_tokens_total{hostname="work-1"}[5m])`,
    );
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((s) => s.metric.model_name === VLLM_MODEL && Number(s.value[1]) > 0)).toBe(
      true,
    );
    // host 1: only what its exporter relays (unit, model, the relay's job), not the vLLM server's
    // own series again (they would add prompt_tokens and requests rows under the scrape job)
    const h1 = rows.filter((r) => r.hostId === host1);
    expect(h1.length).toBeGreaterThan(0);
    for (const r of h1)
      expect(r).toMatchObject({
        unit: "output_tokens",
        modelName: VLLM_MODEL,
        job: RELAY_JOB,
        source: "vllm",
      });
    // host 2: the SGLang server's own token counters (the capture has no request counter), joined
    // by its hostname label, per unit and model, under the scrape's own job
    const h2 = rows.filter((r) => r.hostId === host2);
    expect(new Set(h2.map((r) => r.unit))).toEqual(new Set(["prompt_tokens", "output_tokens"]));
    for (const r of h2)
      expect(r).toMatchObject({ modelName: SGLANG_MODEL, source: "sglang", job: "gpufleet" });
    expect(total(rows, host2, "output_tokens")).toBeGreaterThan(0);
    expect(total(rows, host2, "prompt_tokens")).toBeGreaterThan(0);
    // nothing is tied to a host that is not in the store
    expect(rows.every((r) => r.hostId === host1 || r.hostId === host2)).toBe(true);
  }, 150_000);
});
