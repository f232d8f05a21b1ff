// Who an alert is for, and on which channels that reaches them (issue 24). lib/alerts decides WHO
// (an idle GPU's holders, else its host's owner, looked up in the people directory: alerts may
// read lib/people, notify may not know about holders); this file decides HOW, from the channels.
//
// Tiers are tried in order; the first tier a channel can reach gets the alert INSTEAD of the team:
// - a person with an email address: one email on an email channel routing the alert, else on the
//   oldest enabled email channel (its SMTP server carries mail to anyone);
// - a person with a Slack member id: each Slack channel routing the alert, the message mentioning
//   them (`<@U…>`);
// - Alertmanager channels routing the alert still get it (they route by the `holder` label
//   themselves); webhooks, Slack without a mention and team email addresses do not.
// When no tier reaches anyone (unmapped people, or no channel that can carry their address), the
// alert goes to every routed channel as before: the team's channel is the last fallback.

export interface Person {
  email: string | null;
  slackId: string | null;
}

/** Tiers of people, most specific first: [holders, owner]. Empty or absent: the team. */
export type Audience = readonly (readonly Person[])[];

export interface AudienceChannel {
  id: string;
  kind: string;
}

export interface Delivery {
  channelId: string;
  /** "" for the channel's own audience, "email:<address>", "slack:<member id>" */
  recipient: string;
}

const PASS_THROUGH = new Set(["alertmanager", "alertmanager_api"]);

function forTier(
  people: readonly Person[],
  routed: readonly AudienceChannel[],
  enabled: readonly AudienceChannel[],
): Delivery[] {
  const out: Delivery[] = [];
  const mail = routed.find((c) => c.kind === "email") ?? enabled.find((c) => c.kind === "email");
  for (const p of people) {
    if (p.email && mail) out.push({ channelId: mail.id, recipient: `email:${p.email}` });
    if (p.slackId)
      for (const c of routed)
        if (c.kind === "slack") out.push({ channelId: c.id, recipient: `slack:${p.slackId}` });
  }
  if (out.length === 0) return [];
  for (const c of routed)
    if (PASS_THROUGH.has(c.kind)) out.push({ channelId: c.id, recipient: "" });
  return out;
}

/**
 * The deliveries of one alert: `routed` are the enabled channels whose scope and kinds take it,
 * `enabled` every enabled channel (oldest first), `audience` its tiers of people.
 */
export function planDeliveries(
  routed: readonly AudienceChannel[],
  enabled: readonly AudienceChannel[],
  audience: Audience | undefined,
): Delivery[] {
  for (const tier of audience ?? []) {
    const out = forTier(tier, routed, enabled);
    if (out.length > 0) {
      const seen = new Set<string>();
      return out.filter((d) => {
        const k = `${d.channelId}|${d.recipient}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    }
  }
  return routed.map((c) => ({ channelId: c.id, recipient: "" }));
}
