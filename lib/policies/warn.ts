import "server-only";
import { auditData } from "../auth/audit.ts";
import { describeHolder, type HolderKind } from "../core/holders.ts";
import { HOUR_MS } from "../core/time.ts";
import type { Db } from "../db.ts";
import { formatMoney } from "../format/money.ts";
import { appPublicUrl } from "../notify/public-url.ts";
import { routes } from "../notify/route.ts";
import { postJson, type Sender } from "../notify/send.ts";
import { adminAllowsPrivate, once, vetTarget, type AllowPrivate } from "../notify/target-policy.ts";
import type { EvalHost } from "./evaluate.ts";
import { issueKeepLinks } from "./keep-link.ts";
import type { PolicyFacts } from "./policy-rules.ts";
import type { ResizeFacts } from "./resize-episode.ts";
import { runDto, type RunFacts } from "./run-target.ts";

// A policy's warning: to the host's owner and holders through the notification channels that
// route the host (by team, project, host; a channel limited to some alert kinds does not get
// it), with signed "keep for 4 h / 8 h / 24 h" links. Alertmanager channels are
// skipped: a warning is a message to people, not an alert. The send is at most once: the warning
// is claimed in the store first (lifecycle.ts); each channel's outcome is in the audit entry.

export const WARNING_KIND = "policy_warning";

export interface Recipient {
  /** owner (the host's owner label) or holder (who holds its GPUs) */
  role: "owner" | "holder";
  name: string;
}

/**
 * Who holds the host's GPUs, for the warning: the holders the ledger recorded in the host's latest
 * hour (lib/ledger, UsageHourHolder), largest share first. A wholly idle host's holders are who
 * keeps memory on GPUs nobody uses; a host nobody holds names its owner only.
 */
export async function lookupHostHolders(db: Db, host: EvalHost): Promise<Recipient[]> {
  const latest = await db.usageHourHolder.findFirst({
    where: { hostId: host.id },
    orderBy: { hourStart: "desc" },
    select: { hourStart: true },
  });
  if (!latest) return [];
  const rows = await db.usageHourHolder.findMany({
    where: { hostId: host.id, hourStart: latest.hourStart },
    orderBy: { sharePpm: "desc" },
  });
  const names = new Set(rows.map((r) => describeHolder({ ...r, kind: r.kind as HolderKind })));
  return [...names].map((name) => ({ role: "holder", name }));
}

export async function warnRecipients(
  db: Db,
  host: EvalHost,
  run: RunFacts | null = null,
): Promise<Recipient[]> {
  const owner: Recipient[] = host.owner ? [{ role: "owner", name: host.owner }] : [];
  // a job's or pod's run warns whoever runs it (its user, else the holder's name), not the others
  const holders: Recipient[] = run
    ? [{ role: "holder", name: run.holder.user ?? describeHolder(run.holder) }]
    : await lookupHostHolders(db, host);
  return [...owner, ...holders.filter((h) => h.name !== host.owner)];
}

export interface WarnDeps {
  send: Sender;
  allowPrivate: AllowPrivate;
  publicUrl: string;
}

export const DEFAULT_WARN_DEPS: WarnDeps = {
  send: postJson,
  allowPrivate: adminAllowsPrivate,
  publicUrl: appPublicUrl(),
};

export interface Warning {
  policy: PolicyFacts;
  host: EvalHost;
  /** a job's or pod's run (maximum run time per job or pod); absent for the host itself */
  run?: RunFacts | null;
  episodeId: string;
  number: number;
  of: number;
  actAt: Date;
  linkExpiresAt: Date;
  now: Date;
  /** a right-size accepted from a recommendation: the host is resized, not stopped */
  resize?: ResizeFacts | null;
}

function what(w: Warning): string {
  if (w.resize) {
    const saved =
      w.resize.monthlySavingMicros === null
        ? ""
        : `, saving ${formatMoney(w.resize.monthlySavingMicros)}/month`;
    return `It will be resized from ${w.resize.from} to ${w.resize.to}${saved} (the host restarts) at`;
  }
  return `It will be ${w.policy.action === "terminate" ? "terminated" : "stopped"} at`;
}

const RUN_VERB: Record<string, string> = { cancel_job: "cancelled", delete_pod: "deleted" };

function runMessage(w: Warning, run: RunFacts, names: string, keep: string) {
  const hours = Math.floor((w.now.getTime() - run.since.getTime()) / HOUR_MS);
  const cost =
    run.hourlyMicros === null
      ? ""
      : ` Its ${Math.round(run.gpus * 100) / 100} GPU(s) cost ${formatMoney(run.hourlyMicros)}/h.`;
  return (
    `${run.label} on ${w.host.hostname}: running ${hours} h, longer than policy ` +
    `"${w.policy.name}" allows (${w.policy.idleHours} h). It will be ` +
    `${RUN_VERB[w.policy.action] ?? "ended"} at ${w.actAt.toISOString()} ` +
    `(warning ${w.number} of ${w.of}; for ${names}).${cost}\n${keep}`
  );
}

function message(w: Warning, who: Recipient[], links: { hours: number; url: string }[]) {
  const names = who.map((r) => `${r.name} (${r.role})`).join(", ") || "no owner label";
  const keep = links.map((l) => `keep ${l.hours} h: ${l.url}`).join("\n");
  if (w.run) return runMessage(w, w.run, names, keep);
  const saving =
    w.host.hourlyMicros === null ? "" : ` It costs ${formatMoney(w.host.hourlyMicros)}/h.`;
  const why = w.resize
    ? `its GPUs are mostly unused: a right-size was accepted under policy "${w.policy.name}"`
    : w.policy.kind === "max_runtime"
      ? `running longer than policy "${w.policy.name}" allows (${w.policy.idleHours} h)`
      : `every GPU idle since policy "${w.policy.name}" started counting`;
  return (
    `${w.host.hostname}: ${why}. ${what(w)} ` +
    `${w.actAt.toISOString()} (warning ${w.number} of ${w.of}; for ${names}).${saving}\n${keep}`
  );
}

/** Sends one warning; returns how many channels took it. */
export async function sendWarning(db: Db, w: Warning, deps: WarnDeps): Promise<number> {
  const tokens = await issueKeepLinks(db, { id: w.episodeId, hostId: w.host.id }, w.linkExpiresAt);
  const links = tokens.map((t) => ({ hours: t.hours, url: `${deps.publicUrl}/keep/${t.token}` }));
  const who = await warnRecipients(db, w.host, w.run ?? null);
  const text = message(w, who, links);
  const routable = {
    kind: WARNING_KIND,
    team: w.host.team,
    project: w.host.project,
    hostId: w.host.id,
    hostname: w.host.hostname,
  };
  const channels = (await db.channel.findMany({ where: { enabled: true } })).filter(
    (c) => (c.kind === "webhook" || c.kind === "slack") && routes(c, routable),
  );
  const allowPrivate = once(deps.allowPrivate);
  const outcomes: { channel: string; ok: boolean; error: string | null }[] = [];
  for (const c of channels) {
    const vetted = await vetTarget(c.url, allowPrivate);
    if (!vetted.ok) {
      outcomes.push({ channel: c.name, ok: false, error: `refused: ${vetted.reason}` });
      continue;
    }
    const body =
      c.kind === "slack"
        ? { text }
        : {
            type: "gpufleet.policy.warning",
            text,
            policy: {
              id: w.policy.id,
              name: w.policy.name,
              kind: w.policy.kind,
              action: w.resize ? "resize" : w.policy.action,
            },
            ...(w.resize
              ? {
                  resize: {
                    from: w.resize.from,
                    to: w.resize.to,
                    monthlySavingMicros: w.resize.monthlySavingMicros?.toString() ?? null,
                  },
                }
              : {}),
            host: { id: w.host.id, hostname: w.host.hostname, team: w.host.team },
            ...(w.run ? { run: runDto(w.run) } : {}),
            recipients: who,
            warning: { number: w.number, of: w.of },
            actAt: w.actAt.toISOString(),
            keepLinks: links,
          };
    const r = await deps.send(c.url, body, {
      timeoutMs: 5_000,
      idempotencyKey: `${w.episodeId}:warning:${w.number}`,
      allowPrivate: vetted.allowPrivate,
    });
    outcomes.push({ channel: c.name, ok: r.ok, error: r.error });
  }
  await db.auditEvent.create({
    data: auditData({
      actor: "system",
      action: "policy.warn",
      target: w.host.hostname,
      detail: {
        policyId: w.policy.id,
        episodeId: w.episodeId,
        warning: w.number,
        of: w.of,
        ...(w.run ? { run: w.run.label } : {}),
        actAt: w.actAt.toISOString(),
        recipients: who,
        channels: outcomes,
      },
    }),
  });
  return outcomes.filter((o) => o.ok).length;
}
