import type { Db } from "../db.ts";
import { deliverDue } from "../notify/deliver.ts";
import { startReceiver, type Receiver } from "../notify/receiver.ts";
import { createChannel } from "../notify/save-channel.ts";
import { importPeople, parsePeopleCsv, savePerson } from "../people/directory.ts";
import type { SimHost } from "./holder-hosts.ts";
import { startSmtpSink, type SmtpSink } from "./smtp.ts";

// The idle-alert routing scenario of issue 24, shared by the embedded and the Prometheus runs:
// three simulated hosts of team ml, each with a GPU held but idle.
// - shared-1: alice's GPU 0 is idle, bob's GPU 1 busy; both mapped (alice by hand with a Slack
//   member, bob by CSV). Alice alone hears of it: email and a Slack mention.
// - shared-2: carol (unmapped) holds the idle GPU; the owner dave is mapped (CSV, email only).
// - shared-3: erin (unmapped) holds it; the owner frank is unmapped: the team's channels get it.

export const HOSTS: SimHost[] = [
  {
    id: 1,
    hostname: "shared-1",
    owner: "ops",
    team: "ml",
    gpus: [
      { index: 0, uuid: "GPU-shared1-0", util: 0, user: "alice" },
      { index: 1, uuid: "GPU-shared1-1", util: 0.93, user: "bob" },
    ],
  },
  {
    id: 2,
    hostname: "shared-2",
    owner: "dave",
    team: "ml",
    gpus: [{ index: 0, uuid: "GPU-shared2-0", util: 0, user: "carol" }],
  },
  {
    id: 3,
    hostname: "shared-3",
    owner: "frank",
    team: "ml",
    gpus: [{ index: 0, uuid: "GPU-shared3-0", util: 0, user: "erin" }],
  },
];

export interface Routing {
  smtp: SmtpSink;
  hook: Receiver;
  slack: Receiver;
  close(): Promise<void>;
}

/** The directory, the team's channels (email, webhook, Slack) and an idle rule. */
export async function setUpRouting(db: Db, durationMinutes: number): Promise<Routing> {
  const smtp = await startSmtpSink();
  const hook = await startReceiver();
  const slack = await startReceiver();
  await savePerson(
    { kind: "user", key: "alice", email: "alice@example.com", slackId: "U0ALICE1" },
    db,
  );
  await importPeople(
    parsePeopleCsv(
      "kind,key,email,slack_id\nuser,bob,bob@example.com,U0BOB001\nuser,dave,dave@example.com,\n",
    ),
    db,
  );
  const team = { scopeKind: "team" as const, scopeValue: "ml", kinds: [], enabled: true };
  await createChannel(
    {
      ...team,
      name: "ml mail",
      kind: "email",
      email: {
        host: smtp.host,
        port: smtp.port,
        tls: "none",
        from: "gpufleet@example.com",
        to: ["ml-team@example.com"],
        username: null,
        passwordFile: null,
        caFile: null,
      },
    },
    db,
  );
  await createChannel({ ...team, name: "ml hook", kind: "webhook", url: hook.url }, db);
  await createChannel({ ...team, name: "ml slack", kind: "slack", url: slack.url }, db);
  // p4d.24xlarge: $32.7726/h for 8 GPUs, $4.10/h a GPU
  await db.priceEntry.create({
    data: {
      provider: "aws",
      instanceType: "p4d.24xlarge",
      region: "*",
      pricingModel: "on_demand",
      gpuModel: "A100-SXM4-40GB",
      gpuCount: 8,
      gpuMemoryBytes: 40n * 1024n ** 3n,
      usdPerHourMicros: 32_772_600n,
      effectiveFrom: new Date("2020-01-01T00:00:00Z"),
      source: "test",
      sourceDate: "2026-11-01",
    },
  });
  await db.alertRule.create({
    data: {
      name: "Idle GPU",
      kind: "idle",
      params: JSON.stringify({ durationMinutes, notify: "held" }),
    },
  });
  return {
    smtp,
    hook,
    slack,
    close: async () => {
      await Promise.all([smtp.close(), hook.close(), slack.close()]);
    },
  };
}

/** Delivers everything due at `now` (the queue drained, each row tried once). */
export async function deliverAll(db: Db, now: Date): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const r = await deliverDue(db, { clock: () => now, publicUrl: "https://gpufleet.example" });
    if (r.claimed === 0) return;
  }
}

/** The text of what a receiver got (webhook JSON or Slack body), one string per request. */
export function said(r: Receiver): string[] {
  return r.accepted().map((x) => JSON.stringify(x.body));
}
