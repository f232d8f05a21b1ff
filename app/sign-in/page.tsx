import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form.tsx";
import { safeNext } from "@/lib/auth/next-path.ts";
import { currentUser } from "@/lib/auth/page.ts";
import { env } from "@/lib/env.ts";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const raw = (await searchParams).next;
  const next = safeNext(typeof raw === "string" ? raw : undefined);
  if (await currentUser()) redirect(next);
  return (
    <section className="panel auth-card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to gpufleet</h1>
      <SignInForm next={next} />
      {env.GPUFLEET_DEMO === "1" && (
        <p className="demo-logins">
          Demo fleet: the sign-ins for each role are printed by <code>npm start</code>.
        </p>
      )}
    </section>
  );
}
