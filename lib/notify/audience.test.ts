import { describe, expect, it } from "vitest";
import { planDeliveries } from "./audience.ts";

// Who hears of an alert: the first tier of people some channel can reach, instead of the team.

const mailTeam = { id: "mail-team", kind: "email" };
const mailOther = { id: "mail-other", kind: "email" };
const hook = { id: "hook", kind: "webhook" };
const slack = { id: "slack", kind: "slack" };
const am = { id: "am", kind: "alertmanager_api" };
const alice = { email: "alice@example.com", slackId: "U0ALICE1" };
const owner = { email: "ops@example.com", slackId: null };

describe("planDeliveries", () => {
  it("without an audience every routed channel gets it, as before", () => {
    expect(planDeliveries([hook, slack], [hook, slack], undefined)).toEqual([
      { channelId: "hook", recipient: "" },
      { channelId: "slack", recipient: "" },
    ]);
  });

  it("a mapped holder: their email and a Slack mention; Alertmanager still; the team's webhook not", () => {
    expect(
      planDeliveries([hook, slack, am, mailTeam], [mailTeam, hook, slack, am], [[alice]]),
    ).toEqual([
      { channelId: "mail-team", recipient: "email:alice@example.com" },
      { channelId: "slack", recipient: "slack:U0ALICE1" },
      { channelId: "am", recipient: "" },
    ]);
  });

  it("mail goes through any enabled email channel when none routes the alert", () => {
    expect(
      planDeliveries([hook], [mailOther, hook], [[{ email: "a@x.io", slackId: null }]]),
    ).toEqual([{ channelId: "mail-other", recipient: "email:a@x.io" }]);
  });

  it("a tier nobody can be reached in falls to the next (owner), then to the team", () => {
    const slackOnly = { email: null, slackId: "U0CAROL1" };
    // carol has only a Slack id and no Slack channel routes the alert: the owner gets the email
    expect(planDeliveries([hook], [mailTeam, hook], [[slackOnly], [owner]])).toEqual([
      { channelId: "mail-team", recipient: "email:ops@example.com" },
    ]);
    // and without any email channel, the team's webhook
    expect(planDeliveries([hook], [hook], [[slackOnly], [owner]])).toEqual([
      { channelId: "hook", recipient: "" },
    ]);
  });

  it("two holders of one GPU are each told once", () => {
    const bob = { email: "bob@example.com", slackId: null };
    expect(planDeliveries([mailTeam], [mailTeam], [[alice, bob, alice]])).toEqual([
      { channelId: "mail-team", recipient: "email:alice@example.com" },
      { channelId: "mail-team", recipient: "email:bob@example.com" },
    ]);
  });
});
