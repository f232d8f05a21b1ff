/**
 * A host whose exporter stops answering while the last answer it gave carried a pending spot
 * reclaim notice was reclaimed, not broken: state "interrupted" instead of "down", until it
 * answers again. It is no outage: no exporter-down alert, not counted down in fleet figures.
 * docs/architecture.md "Domain rules".
 */
export const INTERRUPTED_STATE = "interrupted";
/** Prisma `where` for the hosts whose last answer carried a pending reclaim notice. */
export const INTERRUPTED_WHERE = { interruptionPending: true } as const;
