import { expect, test as setup } from "@playwright/test";
import { DEMO_USERS } from "../lib/demo/demo-logins.ts";
import { baseURL } from "../playwright.config.ts";

// Signs in each demo role once through the real sign-in endpoint and keeps its cookies, so the
// specs start signed in as the role they exercise (admin unless a spec says otherwise).

export const storageFor = (role: string) => `test-results/.auth/${role}.json`;

for (const u of DEMO_USERS) {
  setup(`sign in as ${u.role}`, async ({ request }) => {
    const res = await request.post("/api/auth/sign-in/email", {
      data: { email: u.email, password: u.password },
      headers: { origin: baseURL },
    });
    expect(res.status(), await res.text()).toBe(200);
    await request.storageState({ path: storageFor(u.role) });
  });
}
