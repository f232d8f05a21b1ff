import "server-only";
import { auditData, type AuditInput } from "../auth/audit.ts";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { ConflictError, ForbiddenError, NotFoundError, parseOrThrow } from "../core/errors.ts";
import { isUniqueViolation } from "../core/store-errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { redactUrl } from "../notify/url.ts";
import {
  policyInputSchema,
  type PolicyDto,
  type PolicyInput,
  type PolicyUpdate,
} from "../zod/schemas/policy.ts";
import { parseWarnAt } from "./policy-rules.ts";
import { parseScale } from "./scale-rules.ts";

// Stored policies: created in dry run always; every change is audited in the same transaction.
// A team-limited admin sees and edits only policies scoped to one of their teams; fleet, project
// and label policies reach every team's hosts, so only users without a team limit hold them.

type Row = NonNullable<Awaited<ReturnType<Db["policy"]["findUnique"]>>>;

const OWN_TEAMS = "forbidden: a team-limited user may only manage policies of their own teams";

export function policyInScope(scope: TeamScope, p: { scopeKind: string; scopeValue: string }) {
  if (scope === null) return true;
  return p.scopeKind === "team" && inTeamScope(scope, p.scopeValue);
}

export function toPolicyDto(r: Row): PolicyDto {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as PolicyDto["kind"],
    mode: r.mode as PolicyDto["mode"],
    action: r.action as PolicyDto["action"],
    idleHours: r.idleHours,
    warnAt: parseWarnAt(r.warnAt),
    graceMinutes: r.graceMinutes,
    scopeKind: r.scopeKind as PolicyDto["scopeKind"],
    scopeValue: r.scopeValue,
    executor: r.executor as PolicyDto["executor"],
    webhookUrl: r.webhookUrl === null ? null : redactUrl(r.webhookUrl),
    optOutLabel: r.optOutLabel,
    enabled: r.enabled,
    scale: parseScale(r.scale),
    target: r.target as PolicyDto["target"],
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function toData(p: PolicyInput) {
  return {
    name: p.name,
    kind: p.kind,
    action: p.action,
    idleHours: p.idleHours,
    warnAt: JSON.stringify(p.warnAt),
    graceMinutes: p.graceMinutes,
    scopeKind: p.scopeKind,
    scopeValue: p.scopeValue,
    executor: p.executor,
    webhookUrl: p.webhookUrl ?? null,
    optOutLabel: p.optOutLabel,
    enabled: p.enabled,
    scale: p.scale ? JSON.stringify(p.scale) : null,
    target: p.target,
  };
}

/** What the audit log keeps of a policy: everything but the webhook URL (it may carry a token). */
function auditDetail(p: PolicyInput & { mode?: string }) {
  const { webhookUrl, ...rest } = p;
  return { ...rest, webhookUrl: webhookUrl ? redactUrl(webhookUrl) : null };
}

export async function listPolicies(scope: TeamScope, client: Db = defaultDb) {
  const rows = await client.policy.findMany({ orderBy: { name: "asc" } });
  return { policies: rows.filter((r) => policyInScope(scope, r)).map(toPolicyDto) };
}

export async function getPolicy(id: string, scope: TeamScope, client: Db = defaultDb) {
  const row = await client.policy.findUnique({ where: { id } });
  if (!row || !policyInScope(scope, row)) throw new NotFoundError(`policy ${id}`);
  return toPolicyDto(row);
}

function duplicate(name: string) {
  return new ConflictError(`a policy named "${name}" already exists`);
}

export async function createPolicy(
  input: PolicyInput,
  scope: TeamScope,
  audit: Omit<AuditInput, "action" | "target" | "detail">,
  client: Db = defaultDb,
): Promise<PolicyDto> {
  if (!policyInScope(scope, input)) throw new ForbiddenError(OWN_TEAMS);
  try {
    const row = await client.$transaction(async (tx) => {
      const r = await tx.policy.create({ data: { ...toData(input), mode: "dry_run" } });
      await tx.auditEvent.create({
        data: auditData({
          ...audit,
          action: "policy.create",
          target: r.id,
          detail: auditDetail({ ...input, mode: "dry_run" }),
        }),
      });
      return r;
    });
    return toPolicyDto(row);
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(input.name);
    throw e;
  }
}

export async function updatePolicy(
  id: string,
  patch: PolicyUpdate,
  scope: TeamScope,
  audit: Omit<AuditInput, "action" | "target" | "detail">,
  client: Db = defaultDb,
): Promise<PolicyDto> {
  const row = await client.policy.findUnique({ where: { id } });
  if (!row || !policyInScope(scope, row)) throw new NotFoundError(`policy ${id}`);
  const { mode, ...fields } = patch;
  const current = { ...toPolicyDto(row), webhookUrl: row.webhookUrl };
  const { id: _i, mode: _m, createdAt: _c, updatedAt: _u, ...editable } = current;
  const next = parseOrThrow(policyInputSchema, { ...editable, ...fields }, "policy");
  if (!policyInScope(scope, next)) throw new ForbiddenError(OWN_TEAMS);
  const nextMode = mode ?? row.mode;
  try {
    const updated = await client.$transaction(async (tx) => {
      const r = await tx.policy.update({
        where: { id },
        data: { ...toData(next), mode: nextMode },
      });
      // another kind (or target) counts another clock: its live episodes end (a stopped host's
      // stays, for its savings, until it answers again)
      if (next.kind !== row.kind || next.target !== row.target)
        await tx.policyEpisode.updateMany({
          where: { policyId: id, state: { in: ["open", "failed"] } },
          data: { state: "closed", closedAt: new Date(), openKey: null },
        });
      // a job's or pod's run it ended (acted) has nothing left to count either
      if (next.target !== row.target)
        await tx.policyEpisode.updateMany({
          where: { policyId: id, state: "acted", holderKind: { not: null } },
          data: { state: "closed", closedAt: new Date(), openKey: null },
        });
      await tx.auditEvent.create({
        data: auditData({
          ...audit,
          action: mode && mode !== row.mode ? `policy.mode.${mode}` : "policy.update",
          target: id,
          detail: auditDetail({ ...next, mode: nextMode }),
        }),
      });
      return r;
    });
    return toPolicyDto(updated);
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicate(next.name);
    throw e;
  }
}

export async function deletePolicy(
  id: string,
  scope: TeamScope,
  audit: Omit<AuditInput, "action" | "target" | "detail">,
  client: Db = defaultDb,
): Promise<void> {
  const row = await client.policy.findUnique({ where: { id } });
  if (!row || !policyInScope(scope, row)) throw new NotFoundError(`policy ${id}`);
  await client.$transaction([
    client.policy.delete({ where: { id } }),
    client.auditEvent.create({
      data: auditData({
        ...audit,
        action: "policy.delete",
        target: id,
        detail: { name: row.name },
      }),
    }),
  ]);
}
