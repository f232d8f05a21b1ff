// `npm start` runs this after migrating (and seeding the demo): it installs what every store
// starts with (the shipped prices, the default alert rules) and makes sure somebody can sign in. With no user in the store it creates the admin from GPUFLEET_ADMIN_EMAIL and
// GPUFLEET_ADMIN_PASSWORD, or the demo's users (GPUFLEET_DEMO=1), or else prints a one-time
// link to create the first admin. The demo's logins are printed every time.
import { parseArgs } from "node:util";
import { env } from "../lib/env.ts";
import { createSetupToken } from "../lib/auth/setup.ts";
import { countUsers, createUser } from "../lib/auth/users.ts";
import { db } from "../lib/db.ts";
import { describeDefaults, installDefaults } from "../lib/install/defaults.ts";
import { presentDemoUsers, seedDemoUsers } from "../lib/demo/users.ts";

const { values } = parseArgs({
  options: { url: { type: "string", default: "http://127.0.0.1:3000" }, demo: { type: "boolean" } },
});
const email = env.GPUFLEET_ADMIN_EMAIL;
const password = env.GPUFLEET_ADMIN_PASSWORD;
const lines: string[] = [describeDefaults(await installDefaults(db))];

if ((await countUsers()) === 0 && email && password) {
  try {
    await createUser({ email, password, role: "admin" });
    lines.push(`created the admin ${email} from GPUFLEET_ADMIN_EMAIL/GPUFLEET_ADMIN_PASSWORD`);
  } catch (e) {
    // another replica starting at the same time created it first
    if ((await countUsers()) === 0) throw e;
  }
}
if (values.demo) await seedDemoUsers();
if ((await countUsers()) === 0) {
  const token = await createSetupToken();
  lines.push(
    "no user yet: open this one-time link to create the first admin (valid 24 h):",
    `  ${values.url}/setup?token=${token}`,
  );
}
if (values.demo) {
  const demo = await presentDemoUsers();
  if (demo.length > 0) {
    lines.push("demo sign-ins (one per role):");
    for (const u of demo) lines.push(`  ${u.role.padEnd(8)} ${u.email}  password: ${u.password}`);
  }
}
for (const l of lines) console.log(`gpufleet: ${l}`);
await db.$disconnect();
