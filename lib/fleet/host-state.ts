// A host that left the fleet for good (a demo host the demo no longer has) keeps its row, so its
// cost history stays, but it is out of the live inventory: no alert rule judges it, the fleet page
// and the recommendations leave it out, and the costs page does not ask for a price for it.
export const RETIRED_HOST_STATE = "retired";

/** Prisma `where` for the hosts still in the fleet. */
export const LIVE_HOSTS = { state: { not: RETIRED_HOST_STATE } } as const;
