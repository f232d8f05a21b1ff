import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { own } from "../test/helpers.ts";
import { MAX_RELAY_BYTES, WorkRelay, targetJob } from "./relay.ts";

/** A local server answering each path with what the test set; "/hang" never answers. */
let server: Server;
let base: string;
const pages = new Map<string, string>();
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/hang") return; // keeps the connection open, no answer
    if (req.url === "/fail") {
      res.writeHead(500).end("engine dead");
      return;
    }
    if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "#".repeat(1024 * 1024) + "\n";
      for (let i = 0; i <= MAX_RELAY_BYTES / chunk.length + 1; i++) res.write(chunk);
      res.end();
      return;
    }
    const page = pages.get(req.url ?? "");
    if (page === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("relay of inference servers' /metrics", () => {
  it("maps each target's counters with its host:port as job; resets pass through", async () => {
    pages.set("/vllm", own("work/vllm-qwen3-0.6b.prom"));
    pages.set("/sglang", own("work/sglang-llama-3.1-8b.prom"));
    const relay = new WorkRelay({ targets: [`${base}/vllm`, `${base}/sglang`], timeoutMs: 5000 });
    const job = targetJob(base);
    let part = await relay.collect();
    expect(part.targets).toEqual([
      { target: `${base}/vllm`, up: true },
      { target: `${base}/sglang`, up: true },
    ]);
    const value = (source: string, unit: string) =>
      part.series.find((s) => s.source === source && s.unit === unit && s.job === job)?.value;
    expect(value("vllm", "output_tokens")).toBe(4874);
    expect(value("sglang", "prompt_tokens")).toBe(8_128_902);
    expect(part.errors.size).toBe(0);
    // the SGLang server restarted between two ticks: its counters come back lower, as they are
    pages.set("/sglang", own("work/sglang-llama-3.1-8b-restarted.prom"));
    part = await relay.collect();
    expect(value("sglang", "prompt_tokens")).toBe(51_234);
    expect(value("vllm", "output_tokens")).toBe(4874);
  });

  it("counts a down, hung, failing or oversized server; the others are still read", async () => {
    pages.set("/vllm", own("work/vllm-qwen3-0.6b.prom"));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const downPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const targets = [
      `http://127.0.0.1:${downPort}/metrics`,
      `${base}/hang`,
      `${base}/fail`,
      `${base}/vllm`,
    ];
    const relay = new WorkRelay({ targets, timeoutMs: 300 });
    const part = await relay.collect();
    expect(part.targets?.map((t) => t.up)).toEqual([false, false, false, true]);
    expect(Object.fromEntries(part.errors)).toEqual({ down: 1, timeout: 1, http_status: 1 });
    expect(part.series.filter((s) => s.source === "vllm")).toHaveLength(3);
  }, 30_000);

  it("stops reading a page larger than the cap", async () => {
    const relay = new WorkRelay({ targets: [`${base}/huge`], timeoutMs: 60_000 });
    const part = await relay.collect();
    expect(part.targets).toEqual([{ target: `${base}/huge`, up: false }]);
    expect(Object.fromEntries(part.errors)).toEqual({ too_large: 1 });
  }, 90_000);
});
