import "server-only";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { sessionUser, type UserActor } from "./actor.ts";
import { REQUEST_PATH_HEADER, safeNext } from "./next-path.ts";
import { PAGE_PERMISSIONS, roleAllows, type PagePath } from "./roles.ts";

// Pages check the signed-in user on the server before they render anything: no session →
// /sign-in (coming back afterwards), a role without the page's permission → 403.

/** The signed-in user of this request, looked up once per render. */
export const currentUser = cache(async (): Promise<UserActor | null> => {
  // headers() first: it marks the render dynamic before anything touches the store (a build
  // must not need a migrated database)
  return sessionUser(await headers());
});

export async function requirePage(page: PagePath): Promise<UserActor> {
  const user = await currentUser();
  if (!user) {
    // back to the very page and query asked for (proxy.ts passes them; safeNext keeps it on-site)
    const here = (await headers()).get(REQUEST_PATH_HEADER) ?? page;
    redirect(`/sign-in?next=${encodeURIComponent(safeNext(here))}`);
  }
  if (!roleAllows(user.role, PAGE_PERMISSIONS[page])) forbidden();
  return user;
}
