import "server-only";
import { auditData } from "../auth/audit.ts";
import { inTeamScope, type TeamScope } from "../auth/scope.ts";
import { ConflictError, NotFoundError } from "../core/errors.ts";
import { db as defaultDb, type Db } from "../db.ts";
import { ExecutorError } from "./executors/types.ts";
import { startSimulated } from "./executors/simulated.ts";

// Starting again a host a policy stopped on the simulated cloud (the demo): its simulator
// instance is switched on, it answers again, and the next policies pass closes the episode (its
// realized savings stop growing). Real clouds' hosts are started in the cloud's own console.

export async function startStoppedHost(
  hostId: string,
  scope: TeamScope,
  audit: { actor: string; ip: string | null },
  client: Db = defaultDb,
): Promise<{ hostId: string; hostname: string; started: true }> {
  const host = await client.host.findUnique({ where: { id: hostId } });
  if (!host || !inTeamScope(scope, host.team)) throw new NotFoundError(`host ${hostId}`);
  const episode = await client.policyEpisode.findFirst({
    where: { hostId, holderKind: null, state: "acted", policy: { executor: "simulated" } },
    orderBy: { actedAt: "desc" },
  });
  if (!episode)
    throw new ConflictError(`${host.hostname} was not stopped by a simulated-cloud policy`);
  try {
    await startSimulated(client, hostId);
  } catch (e) {
    if (e instanceof ExecutorError)
      throw new ConflictError(`cannot start ${host.hostname}: ${e.message}`);
    throw e;
  }
  await client.auditEvent.create({
    data: auditData({
      ...audit,
      action: "policy.start",
      target: host.hostname,
      detail: { episodeId: episode.id, policyId: episode.policyId },
    }),
  });
  return { hostId, hostname: host.hostname, started: true };
}

/**
 * Whether the host's latest policy stop is open and was made on the simulated cloud, so the
 * instance page may offer "Start again" (a stop through AWS, a webhook… is undone in that cloud).
 */
export async function startableOnSimulatedCloud(
  hostId: string,
  client: Db = defaultDb,
): Promise<boolean> {
  const last = await client.policyEpisode.findFirst({
    where: { hostId, holderKind: null, actedAt: { not: null } },
    orderBy: { actedAt: "desc" },
    select: { state: true, resumedAt: true, policy: { select: { executor: true } } },
  });
  return last?.state === "acted" && last.resumedAt === null && last.policy.executor === "simulated";
}
