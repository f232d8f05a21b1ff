import { describe, expect, it } from "vitest";
import { channelInputSchema, webhookUrlSchema } from "../zod/schemas/channel.ts";
import { backoffMs } from "./deliver.ts";
import { channelHealth } from "./channel-health.ts";
import { buildMessage } from "./message.ts";
import { alertmanagerBody, slackBody } from "./payload.ts";
import { routes } from "./route.ts";
import { redactText, redactUrl } from "./url.ts";

describe("webhook URLs", () => {
  it("accepts http and https only", () => {
    expect(webhookUrlSchema.safeParse("https://hooks.example.com/x").success).toBe(true);
    expect(webhookUrlSchema.safeParse("http://127.0.0.1:9000/hook").success).toBe(true);
    for (const bad of ["ftp://x/y", "file:///etc/passwd", "javascript:alert(1)", "not a url", ""]) {
      expect(webhookUrlSchema.safeParse(bad).success, bad).toBe(false);
    }
    const r = channelInputSchema.safeParse({ name: "x", kind: "webhook", url: "ftp://x/y" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("only http:// and https:// URLs are allowed");
  });

  it("redacts userinfo, query tokens and Slack's token path", () => {
    expect(redactUrl("https://bob:hunter2@hooks.example.com/a?token=abc&x=1")).toBe(
      "https://***@hooks.example.com/a?token=***&x=***",
    );
    expect(redactUrl("https://hooks.slack.com/services/T0001/B0002/XXXXyyyyZZZZ1234abcd")).toBe(
      "https://hooks.slack.com/services/***/***/***",
    );
    expect(redactUrl("http://127.0.0.1:9/hook")).toBe("http://127.0.0.1:9/hook");
  });

  it("scrubs the secret parts out of an error message", () => {
    const url = "https://bob:hunter2@hooks.example.com/a?token=abcdef";
    const msg = `fetch failed for ${url} (token abcdef, password hunter2)`;
    const out = redactText(msg, url);
    expect(out).not.toContain("hunter2");
    expect(out).not.toContain("abcdef");
    expect(out).toContain("https://***@hooks.example.com/a?token=***");
  });
});

describe("routing", () => {
  const alert = { kind: "idle", team: "research", project: "llm", hostId: "h1", hostname: "gpu-1" };
  const ch = (scopeKind: string, scopeValue = "", kinds = "[]", enabled = true) => ({
    id: "c",
    enabled,
    scopeKind,
    scopeValue,
    kinds,
  });
  it("sends a team's idle alerts to that team's channel only", () => {
    expect(routes(ch("team", "research"), alert)).toBe(true);
    expect(routes(ch("team", "vision"), alert)).toBe(false);
    expect(routes(ch("fleet"), alert)).toBe(true);
    expect(routes(ch("host", "gpu-1"), alert)).toBe(true);
    expect(routes(ch("project", "llm"), alert)).toBe(true);
    expect(routes(ch("team", "research", '["budget"]'), alert)).toBe(false);
    expect(routes(ch("team", "research", '["idle","budget"]'), alert)).toBe(true);
    expect(routes(ch("fleet", "", "[]", false), alert)).toBe(false);
  });
});

describe("messages", () => {
  const m = buildMessage(
    "n1",
    "resolved",
    {
      id: "a1",
      kind: "idle",
      severity: "warning",
      state: "resolved",
      summary: "GPU 3 on gpu-1 held but idle",
      details: JSON.stringify({ gpuIndex: 3, idleKind: "held" }),
      fingerprint: "r:gpu:G",
      startsAt: new Date("2026-11-20T12:00:00Z"),
      endsAt: new Date("2026-11-20T13:00:00Z"),
      hostId: "h1",
      gpuUuid: "G",
      team: "research",
      project: "llm",
      ruleName: "Idle GPUs",
    },
    {
      hostname: "gpu-1",
      owner: "alice",
      team: "research",
      project: "llm",
      provider: "aws",
      instanceType: "p4d",
    },
  );
  it("names the owner and the transition", () => {
    expect(m.owner).toBe("alice");
    expect(m.status).toBe("resolved");
    expect(m.text).toContain("owner: alice");
    expect(slackBody(m).text).toContain("RESOLVED");
  });
  it("fills Alertmanager's v4 webhook shape", () => {
    const am = alertmanagerBody(m);
    expect(am).toMatchObject({ version: "4", status: "resolved", receiver: "gpufleet" });
    expect(am.alerts[0]).toMatchObject({
      status: "resolved",
      endsAt: "2026-11-20T13:00:00.000Z",
      labels: {
        alertname: "gpufleet_idle",
        hostname: "gpu-1",
        gpu: "3",
        owner: "alice",
        idle: "held",
      },
    });
  });
});

type Attempt = { at: Date; ok: boolean; error: string | null };

describe("retries and channel health", () => {
  it("backs off exponentially with a cap", () => {
    const o = { baseDelayMs: 30_000, maxDelayMs: 600_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, o))).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 600_000,
    ]);
  });
  it("shows a channel that keeps failing as failing", () => {
    const at = new Date();
    const fail: Attempt = { at, ok: false, error: "HTTP 500" };
    const ok: Attempt = { at, ok: true, error: null };
    const h = (attempts: Attempt[], failed = 0) =>
      channelHealth({ enabled: true, recentAttempts: attempts, pending: 0, delivered: 0, failed })
        .status;
    expect(h([])).toBe("unused");
    expect(h([fail, fail, ok])).toBe("ok");
    expect(h([fail, fail, fail, ok])).toBe("failing");
    expect(h([fail], 1)).toBe("failing");
    expect(
      channelHealth({ enabled: false, recentAttempts: [], pending: 0, delivered: 0, failed: 0 })
        .status,
    ).toBe("disabled");
  });
});
