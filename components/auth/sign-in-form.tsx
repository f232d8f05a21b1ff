"use client";

import { useState, type FormEvent } from "react";

async function errorText(res: Response): Promise<string> {
  if (res.status === 401) return "Wrong email or password.";
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  const detail = body?.error;
  if (res.status === 429) return detail ?? "Too many attempts. Wait a few minutes and try again.";
  return detail ? `Sign-in failed: ${detail}` : `Sign-in failed (HTTP ${res.status}).`;
}

export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          email: String(form.get("email") ?? ""),
          password: String(form.get("password") ?? ""),
          rememberMe: true,
        }),
      });
      if (!res.ok) {
        setError(await errorText(res));
        setBusy(false);
        return;
      }
      // a full load, so the header and every page render for the new session
      window.location.assign(next);
    } catch (err) {
      setError(`Could not reach the server: ${err instanceof Error ? err.message : String(err)}`);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} aria-describedby={error ? "sign-in-error" : undefined}>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && (
        <p id="sign-in-error" className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
