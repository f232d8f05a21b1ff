import "server-only";

// Creates the demo's users (lib/demo/demo-logins.ts) for `npm start`.
import { db } from "@/lib/db.ts";
import { createUser } from "@/lib/auth/users.ts";
import { savePerson } from "@/lib/people/directory.ts";
import { setSetting } from "@/lib/settings/app-settings.ts";
import { DEMO_HOLDER, DEMO_PEOPLE_PATTERN, DEMO_USERS } from "./demo-logins.ts";

/** Creates the demo users when the store has no user; returns whether it did. */
export async function seedDemoUsers(): Promise<boolean> {
  if ((await db.user.count()) > 0) return false;
  for (const u of DEMO_USERS) await createUser(u);
  await savePerson({
    kind: "user",
    key: DEMO_HOLDER.user,
    email: DEMO_HOLDER.email,
    slackId: null,
  });
  await setSetting("peopleEmailPattern", DEMO_PEOPLE_PATTERN);
  return true;
}

/** The demo users that still exist (an admin may have removed or renamed them). */
export async function presentDemoUsers(): Promise<typeof DEMO_USERS> {
  const found = await db.user.findMany({
    where: { email: { in: DEMO_USERS.map((u) => u.email) } },
    select: { email: true },
  });
  const emails = new Set(found.map((u) => u.email));
  return DEMO_USERS.filter((u) => emails.has(u.email));
}
