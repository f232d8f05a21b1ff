import type { Role } from "@/lib/auth/roles.ts";

// The demo's people, one per role, so each role can be tried. `npm start` prints them; they are
// only made for the demo fleet (GPUFLEET_DEMO=1) into a store with no users. Pure data, so the
// end-to-end tests can sign in with them too.

export const DEMO_USERS: readonly { email: string; password: string; role: Role }[] = [
  { email: "admin@demo.gpufleet.test", password: "demo-admin-pass", role: "admin" },
  { email: "finance@demo.gpufleet.test", password: "demo-finance-pass", role: "finance" },
  { email: "operator@demo.gpufleet.test", password: "demo-operator-pass", role: "operator" },
  { email: "viewer@demo.gpufleet.test", password: "demo-viewer-pass", role: "viewer" },
];

/**
 * The demo's holder with a login (issue 24): the simulator's user `alice` holds GPUs on its shared
 * hosts, and the people directory maps her to the demo viewer, whose "My GPUs" page shows them.
 */
export const DEMO_HOLDER = { user: "alice", email: "viewer@demo.gpufleet.test" } as const;

/**
 * The demo directory's address pattern: the simulator's other users (bob, carol on the shared
 * hosts, dave and erin on the Slurm nodes) get an address each; alice's entry above wins over it.
 */
export const DEMO_PEOPLE_PATTERN = "{user}@demo.gpufleet.local";
