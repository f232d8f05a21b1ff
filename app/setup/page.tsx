import type { Metadata } from "next";
import Link from "next/link";
import { SetupForm } from "@/components/auth/setup-form.tsx";
import { setupTokenValid } from "@/lib/auth/setup.ts";

export const metadata: Metadata = { title: "First run" };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SetupPage({ searchParams }: Props) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const valid = await setupTokenValid(token);
  return (
    <section className="panel auth-card" aria-labelledby="setup-title">
      <h1 id="setup-title">Create the first admin</h1>
      {valid ? (
        <SetupForm token={token} />
      ) : (
        <p role="alert">
          This setup link is not valid: it was already used, it expired, or a user exists. Restart{" "}
          <code>npm start</code> for a new link, or <Link href="/sign-in">sign in</Link>.
        </p>
      )}
    </section>
  );
}
