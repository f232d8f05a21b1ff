import { describe, expect, it } from "vitest";
import { channelInputSchema } from "../zod/schemas/channel.ts";
import {
  alertLabels,
  alertsEndpoint,
  isPermanentRefusal,
  postableAlerts,
  TEST_ALERT_TTL_MS,
} from "./alertmanager-api.ts";
import { buildMessage, type MessageAlert, type MessageHost } from "./message.ts";
import { buildPayload, endpointFor } from "./payload.ts";
import { answerMessage } from "./send.ts";

// The postableAlert wire format (prometheus/alertmanager api/v2/openapi.yaml, postAlerts) and the
// rules around it; a real Alertmanager checks the same in alertmanager-api.integration.test.ts.

const START = new Date("2026-11-20T12:00:00Z");
const NOW = new Date("2026-11-20T12:45:00Z");
const alert: MessageAlert = {
  id: "alert-1",
  kind: "idle",
  severity: "warning",
  state: "firing",
  summary: "GPU 3 on gpu-node-1 held but idle for 45 min",
  details: JSON.stringify({ gpuIndex: 3, idleKind: "held" }),
  fingerprint: "idle:rule-1:GPU-abc",
  startsAt: START,
  endsAt: null,
  hostId: "h1",
  gpuUuid: "GPU-abc",
  team: "research",
  project: "llm",
  ruleName: "Idle GPUs",
};
const host: MessageHost = {
  hostname: "gpu-node-1",
  owner: "alice@example.com",
  team: "research",
  project: "llm",
  provider: "aws",
  instanceType: "p4d.24xlarge",
};
const PUBLIC = "https://gpufleet.example.com/fleet/";

describe("the alerts endpoint under an Alertmanager base URL", () => {
  it("appends /api/v2/alerts, keeping a route prefix, credentials and the query", () => {
    expect(alertsEndpoint("http://am.internal:9093")).toBe("http://am.internal:9093/api/v2/alerts");
    expect(alertsEndpoint("http://am.internal:9093/")).toBe(
      "http://am.internal:9093/api/v2/alerts",
    );
    expect(alertsEndpoint("https://u:p@ops.example.com/alertmanager/?x=1")).toBe(
      "https://u:p@ops.example.com/alertmanager/api/v2/alerts?x=1",
    );
  });

  it("takes a URL that already names the API as the same Alertmanager", () => {
    expect(alertsEndpoint("http://am:9093/api/v2")).toBe("http://am:9093/api/v2/alerts");
    expect(alertsEndpoint("http://am:9093/am/api/v2/alerts/")).toBe(
      "http://am:9093/am/api/v2/alerts",
    );
  });

  it("is only used for alertmanager_api channels", () => {
    expect(endpointFor("alertmanager", "http://x/hook")).toBe("http://x/hook");
    expect(endpointFor("alertmanager_api", "http://x/")).toBe("http://x/api/v2/alerts");
  });
});

describe("postable alerts", () => {
  it("carries stable labels, annotations, startsAt and a link back, no endsAt while firing", () => {
    const m = buildMessage("n1", "firing", alert, host);
    expect(postableAlerts(m, { now: NOW, publicUrl: PUBLIC })).toEqual([
      {
        labels: {
          alertname: "gpufleet_idle",
          severity: "warning",
          source: "gpufleet",
          alert_id: "alert-1",
          fingerprint: "idle:rule-1:GPU-abc",
          hostname: "gpu-node-1",
          uuid: "GPU-abc",
          gpu: "3",
          team: "research",
          project: "llm",
        },
        annotations: {
          summary: alert.summary,
          description: m.text,
          rule: "Idle GPUs",
          owner: "alice@example.com",
          idle: "held",
        },
        startsAt: "2026-11-20T12:00:00.000Z",
        generatorURL: "https://gpufleet.example.com/fleet/alerts?alert=alert-1",
      },
    ]);
  });

  it("keeps the label set when the owner, the rule's name or the summary change", () => {
    const before = alertLabels(buildMessage("n1", "firing", alert, host));
    const renamed = { ...alert, ruleName: "Renamed", summary: "idle for 2 h" };
    const after = alertLabels(buildMessage("n2", "firing", renamed, { ...host, owner: "bob" }));
    expect(after).toEqual(before);
  });

  it("sets endsAt to the resolve time when resolved, and ends the other severities too", () => {
    const resolved = { ...alert, state: "resolved", endsAt: new Date("2026-11-20T12:30:00Z") };
    const out = postableAlerts(buildMessage("n3", "resolved", resolved, host), { now: NOW });
    expect(out.map((a) => [a.labels.severity, a.endsAt])).toEqual([
      ["warning", "2026-11-20T12:30:00.000Z"],
      ["info", "2026-11-20T12:30:00.000Z"],
      ["critical", "2026-11-20T12:30:00.000Z"],
    ]);
    expect(out.every((a) => a.generatorURL === undefined)).toBe(true);
  });

  it("ends a firing message sent late, after the alert resolved", () => {
    const late = { ...alert, state: "resolved", endsAt: new Date("2026-11-20T12:40:00Z") };
    const [main] = postableAlerts(buildMessage("n1", "firing", late, host), { now: NOW });
    expect(main?.endsAt).toBe("2026-11-20T12:40:00.000Z");
  });

  it("on an escalation ends the copies under the other severities at the send time", () => {
    const budget = { ...alert, kind: "budget", severity: "critical", details: '{"level":100}' };
    const out = postableAlerts(buildMessage("n4", "firing:100", budget, null), { now: NOW });
    expect(out.map((a) => [a.labels.severity, a.endsAt ?? null])).toEqual([
      ["critical", null],
      ["info", NOW.toISOString()],
      ["warning", NOW.toISOString()],
    ]);
    expect(out[0]?.annotations.threshold).toBe("100 %");
    // a periodic re-send carries the alert alone
    expect(
      postableAlerts(buildMessage("n4", "firing:100", budget, null), { now: NOW, resend: true }),
    ).toHaveLength(1);
  });

  it("marks a test message and lets it end by itself", () => {
    const m = buildMessage("t", "firing", { ...alert, startsAt: NOW }, null, true);
    const [only, ...rest] = postableAlerts(m, { now: NOW });
    expect(rest).toEqual([]);
    expect(only?.labels.test).toBe("true");
    expect(only?.endsAt).toBe(new Date(NOW.getTime() + TEST_ALERT_TTL_MS).toISOString());
  });

  it("is what buildPayload sends for the kind: a JSON array", () => {
    const body = buildPayload("alertmanager_api", buildMessage("n1", "firing", alert, host), NOW);
    expect(Array.isArray(body)).toBe(true);
  });
});

describe("answers", () => {
  it("treats 4xx as a refusal, except timeouts and rate limits", () => {
    expect([400, 404, 422].map(isPermanentRefusal)).toEqual([true, true, true]);
    expect([408, 429, 500, 503, null].map(isPermanentRefusal)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("quotes the message of an error body: a JSON string, an object's message, or text", () => {
    expect(answerMessage('"start time must be before end time"\n')).toBe(
      "start time must be before end time",
    );
    expect(answerMessage('{"code":400,"message":"parsing alerts body failed"}')).toBe(
      "parsing alerts body failed",
    );
    expect(answerMessage("404 page not found\n")).toBe("404 page not found");
    expect(answerMessage('"bad a; bad b; bad a"')).toBe("bad a; bad b");
    expect(answerMessage("x".repeat(500))).toHaveLength(300);
  });
});

describe("the channel schema", () => {
  it("takes the alertmanager_api kind and names every kind when one is wrong", () => {
    const ok = channelInputSchema.safeParse({
      name: "AM",
      kind: "alertmanager_api",
      url: "http://alertmanager:9093",
    });
    expect(ok.success).toBe(true);
    const bad = channelInputSchema.safeParse({ name: "AM", kind: "pagerduty", url: "http://x" });
    expect(bad.error?.issues[0]?.message).toBe(
      "pick one of webhook, slack, alertmanager, alertmanager_api, email",
    );
  });
});
