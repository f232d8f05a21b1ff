/**
 * A host whose exporter stops answering while the last answer it gave carried a pending spot
 * reclaim notice was reclaimed, not broken: state "interrupted" instead of "down", until it
 * answers again. It is no outage: no exporter-down alert, not counted down in fleet figures.
 * docs/architecture.md "Domain rules".
 */
export const INTERRUPTED_STATE = "interrupted";
/** Prisma `where` for the hosts whose last answer carried a pending reclaim notice. */
export const INTERRUPTED_WHERE = { interruptionPending: true } as const;

// A host that left the fleet for good (a demo host the demo no longer has) keeps its row, so its
// cost history stays, but it is out of the live inventory: no alert rule judges it, the fleet page
// and the recommendations leave it out, and the costs page does not ask for a price for it.
export const RETIRED_HOST_STATE = "retired";

/** Prisma `where` for the hosts still in the fleet. */
export const LIVE_HOSTS = { state: { not: RETIRED_HOST_STATE } } as const;
