import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db.ts";
import { discoverFromPrometheus } from "../ingest/discover-prometheus.ts";
import { newRecorderState, recordScrapes } from "../ingest/record-scrapes.ts";
import { scrapeOne } from "../ingest/scrape.ts";
import { syncTargets } from "../ingest/sync-targets.ts";
import { createEmbeddedSource } from "../metrics/embedded/source.ts";
import { createPromClient } from "../metrics/prometheus/api.ts";
import { createPrometheusSource } from "../metrics/prometheus/source.ts";
import { serveHosts, type SimHostServer } from "../testing/holder-hosts.ts";
import { deliverAll, HOSTS, said, setUpRouting, type Routing } from "../testing/holder-routing.ts";
import { hasPrometheus, startPrometheus, type RunningPrometheus } from "../testing/prometheus.ts";
import { makeTestDb } from "../testing/test-db.ts";
import { evaluateAlerts } from "./evaluate-rules.ts";
import { getAlert } from "./get-alert.ts";

// Idle alerts reach the person holding the GPU and nobody else (issue 24), in both metric modes:
// simulated hosts scraped by the embedded ingest, then by a real Prometheus (skipped where no
// prometheus binary is installed). Mail goes through a real SMTP server on 127.0.0.1; the team's
// webhook and Slack channels are HTTP receivers. Scenario: lib/testing/holder-routing.ts.

async function expectRouted(r: Routing, opts: { spent: RegExp }) {
  const mails = r.smtp.mails;
  const to = (addr: string) => mails.filter((m) => m.to.includes(addr));
  // A (alice) gets the email about her idle GPU, naming what she holds and what it costs
  const alice = to("alice@example.com");
  expect(alice).toHaveLength(1);
  const a = alice[0];
  expect(a?.to).toEqual(["alice@example.com"]);
  expect(a?.subject).toContain("shared-1");
  expect(a?.text).toContain("GPU 0 (NVIDIA A100-SXM4-40GB) on shared-1 has been idle for");
  expect(a?.text).toContain("Held by alice · python");
  expect(a?.text).toContain("What to do: if you are done with it, end the process");
  expect(a?.text).toMatch(opts.spent);
  expect(a?.html).toContain("Held by alice · python");
  // B (bob, busy) gets nothing; nothing about shared-1 names him
  expect(to("bob@example.com")).toHaveLength(0);
  for (const m of mails) expect(m.text).not.toContain("bob");
  // unmapped holder (carol) → the host's owner dave, by email
  const dave = to("dave@example.com");
  expect(dave).toHaveLength(1);
  expect(dave[0]?.text).toContain("Held by carol · python");
  // unmapped holder and owner (erin, frank) → the team's channels: its address, webhook and Slack
  const team = to("ml-team@example.com");
  expect(team.map((m) => m.subject)).toEqual([expect.stringContaining("shared-3")]);
  const hook = said(r.hook);
  expect(hook).toHaveLength(1);
  expect(hook[0]).toContain("shared-3");
  // Slack: alice's alert mentions her on the team's Slack; the team fallback mentions nobody
  const slack = said(r.slack);
  expect(slack).toHaveLength(2);
  const s1 = slack.filter((s) => s.includes("shared-1"));
  expect(s1).toHaveLength(1);
  expect(s1[0]).toContain("<@U0ALICE1>");
  expect(slack.some((s) => s.includes("shared-2"))).toBe(false);
  expect(slack.join("\n")).not.toContain("U0BOB001");
  expect(mails).toHaveLength(3);
}

describe("idle alerts go to the holder (embedded)", () => {
  let db: Db;
  let hosts: SimHostServer;
  let routing: Routing;
  const T0 = new Date("2026-11-20T12:00:00Z");
  const sim = structuredClone(HOSTS);
  const state = newRecorderState();
  let now = T0;

  /** Scrapes every host every 20 s for `minutes`, on the pinned clock. */
  async function scrapeFor(minutes: number) {
    const rows = await db.host.findMany({ select: { id: true, target: true } });
    for (let i = 0; i < minutes * 3; i++) {
      now = new Date(now.getTime() + 20_000);
      const scraped = await Promise.all(
        rows.map(async (h) => ({ hostId: h.id, result: await scrapeOne(h.target ?? "", 5000) })),
      );
      await recordScrapes(db, state, scraped, now);
    }
  }
  const evaluate = () =>
    evaluateAlerts(db, { now, metrics: createEmbeddedSource(db, 20), intervalS: 20 });

  beforeAll(async () => {
    db = makeTestDb().db;
    hosts = await serveHosts(sim);
    routing = await setUpRouting(db, 5);
    await syncTargets(
      db,
      HOSTS.map((h) => ({ url: hosts.metricsUrl(h.id), labels: {} })),
      "file_sd",
    );
  });
  afterAll(async () => {
    await routing?.close();
    await hosts?.close();
    await db?.$disconnect();
  });

  it("A's idle GPU: A gets the email, B and the team's channels nothing; unmapped → owner → team", async () => {
    await scrapeFor(7);
    const r = await evaluate();
    expect(r.errors).toEqual([]);
    expect(r.fired).toBe(3);
    await deliverAll(db, now);
    // idle for the rule's 5 minutes when delivered: $4.096575/h × 5/60 h = $0.34
    await expectRouted(routing, { spent: /It costs \$4\.10\/h: \$0\.34 spent idle so far\./ });
    // the deliveries say who they were for
    const recipients = (await db.notification.findMany()).map((n) => n.recipient).sort();
    expect(recipients).toEqual([
      "",
      "",
      "",
      "email:alice@example.com",
      "email:dave@example.com",
      "slack:U0ALICE1",
    ]);
    // and the alert's page says so, with the person as the viewer may see them
    const alice = await db.notification.findFirstOrThrow({
      where: { recipient: "email:alice@example.com" },
    });
    const detail = await getAlert(alice.alertId, { client: db, now, scope: null });
    expect(detail.notifications.map((n) => n.recipient).sort()).toEqual([
      "Slack <@U0ALICE1>",
      "email alice@example.com",
    ]);
    const masked = await getAlert(alice.alertId, {
      client: db,
      now,
      scope: null,
      person: () => "user-0000",
    });
    expect(masked.notifications.map((n) => n.recipient).sort()).toEqual([
      "Slack <@user-0000>",
      "email user-0000",
    ]);
  });

  it("when A puts the GPU back to work, the resolution goes to A, not to the team", async () => {
    const gpu = sim[0]?.gpus[0];
    if (!gpu) throw new Error("no GPU");
    gpu.util = 0.9;
    await scrapeFor(1);
    expect((await evaluate()).resolved).toBe(0); // resolving: held for the resolve hold
    await scrapeFor(6);
    expect((await evaluate()).resolved).toBe(1);
    const hookBefore = routing.hook.accepted().length;
    await deliverAll(db, now);
    const resolved = routing.smtp.mails.filter((m) => m.subject.includes("RESOLVED"));
    expect(resolved.map((m) => m.to)).toEqual([["alice@example.com"]]);
    expect(routing.hook.accepted().length).toBe(hookBefore);
    const slack = said(routing.slack).filter((x) => x.includes("RESOLVED"));
    expect(slack).toHaveLength(1);
    expect(slack[0]).toContain("<@U0ALICE1>");
  });
});

describe.skipIf(!hasPrometheus)("idle alerts go to the holder (Prometheus mode)", () => {
  let db: Db;
  let hosts: SimHostServer;
  let routing: Routing;
  let prom: RunningPrometheus;

  beforeAll(async () => {
    db = makeTestDb().db;
    hosts = await serveHosts(structuredClone(HOSTS));
    routing = await setUpRouting(db, 1);
    const dir = mkdtempSync(join(tmpdir(), "gpufleet-holder-prom-"));
    const targetsFile = join(dir, "targets.json");
    writeFileSync(targetsFile, JSON.stringify(hosts.targets));
    prom = await startPrometheus({ targetFiles: [targetsFile], scrapeInterval: "1s" });
    // wait for data, not a fixed time: every target needs 20 successful scrapes in the last minute
    const client = createPromClient(prom.url);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const counts = await client.query("sum_over_time(up[60s])");
      if (counts.length === HOSTS.length && counts.every((c) => Number(c.value[1]) >= 20)) break;
      if (Date.now() > deadline)
        throw new Error(`Prometheus has too few scrapes: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await discoverFromPrometheus(db, client);
  }, 150_000);
  afterAll(async () => {
    await prom?.stop();
    await routing?.close();
    await hosts?.close();
    await db?.$disconnect();
  });

  it("the same routing from Prometheus's series", async () => {
    const now = new Date();
    const client = createPromClient(prom.url);
    const r = await evaluateAlerts(db, {
      now,
      metrics: createPrometheusSource(db, prom.url, client),
      intervalS: 1,
    });
    expect(r.errors).toEqual([]);
    expect(r.fired).toBe(3);
    await deliverAll(db, now);
    await expectRouted(routing, { spent: /It costs \$4\.10\/h: \$0\.\d\d spent idle so far\./ });
  });
});
