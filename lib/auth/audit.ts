import "server-only";
import { db } from "@/lib/db.ts";

// The audit log: sign-ins, role changes, budget and rule edits, acknowledgements, dismissals and
// every other change made through the API. Never holds secrets (passwords, tokens, webhook URLs).

export type AuditInput = {
  actor: string;
  action: string;
  target?: string;
  detail?: Record<string, unknown>;
  ip?: string | null;
};

export type AuditEntry = {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
  ip: string | null;
};

/** The client address as the proxy in front of us reports it (Next sets x-forwarded-for). */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip") || null;
}

/** The AuditEvent row for `input`, for a service that writes it in its own transaction. */
export function auditData(input: AuditInput) {
  return {
    actor: input.actor.slice(0, 200),
    action: input.action,
    target: (input.target ?? "").slice(0, 500),
    detail: JSON.stringify(input.detail ?? {}),
    ip: input.ip ?? null,
  };
}

export async function recordAudit(input: AuditInput): Promise<void> {
  // createMany: the row is not read back (a create returns it, which costs its select)
  await db.auditEvent.createMany({ data: [auditData(input)] });
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function listAudit(opts: {
  limit: number;
  before?: Date;
  /** with before: the last entry seen, so entries sharing its time are not skipped */
  beforeId?: string;
  action?: string;
  actor?: string;
}): Promise<AuditEntry[]> {
  const rows = await db.auditEvent.findMany({
    where: {
      ...(opts.before
        ? opts.beforeId
          ? { OR: [{ at: { lt: opts.before } }, { at: opts.before, id: { lt: opts.beforeId } }] }
          : { at: { lt: opts.before } }
        : {}),
      ...(opts.action ? { action: { startsWith: opts.action } } : {}),
      ...(opts.actor ? { actor: opts.actor } : {}),
    },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: opts.limit,
  });
  return rows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: parseDetail(r.detail),
    ip: r.ip,
  }));
}
