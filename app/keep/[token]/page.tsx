import type { Metadata } from "next";
import { KeepForm } from "@/components/policies/keep-form.tsx";

// A keep link from a policy's warning (issue 25): public, no sign-in. The page itself reads
// nothing and reveals nothing (a link preview or an unfurler may open it); keeping happens only
// when the button posts the token, which the server checks (signed, single use, not expired).

export const metadata: Metadata = { title: "Keep this host", robots: { index: false } };

type Props = { params: Promise<{ token: string }> };

export default async function KeepPage({ params }: Props) {
  const { token } = await params;
  return (
    <section className="panel auth-card" aria-labelledby="keep-title">
      <h1 id="keep-title">Keep this host</h1>
      <p>
        An idle-release policy warned that this host will be stopped. Keeping it postpones the stop
        by the hours the link names; the link works once.
      </p>
      <KeepForm token={token.slice(0, 200)} />
    </section>
  );
}
