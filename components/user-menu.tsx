"use client";

import { useState } from "react";
import type { Role } from "@/lib/auth/roles.ts";

/** Who is signed in, and signing out (better-auth's endpoint clears the session and cookie). */
export function UserMenu({ email, role }: { email: string; role: Role }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function signOut() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!res.ok) throw new Error(`sign-out failed (${res.status})`);
      window.location.assign("/sign-in");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <div className="user-menu">
      <span className="user-email" title={`signed in as ${email} (${role})`}>
        {email} <span className="role-badge">{role}</span>
      </span>
      <button type="button" className="sign-out" onClick={() => void signOut()} disabled={busy}>
        Sign out
      </button>
      {error && (
        <span role="alert" className="sign-out-error">
          {error}
        </span>
      )}
    </div>
  );
}
