"use client";

import { useState, type FormEvent } from "react";

/** The one-time first-run form: creates the first admin, then sends them to sign in. */
export function SetupForm({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("confirm") ?? "")) {
      setError("The two passwords differ.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/setup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          token,
          email: String(form.get("email") ?? ""),
          name: String(form.get("name") ?? ""),
          password,
        }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        setError(body?.error ?? `Setup failed (HTTP ${res.status}).`);
        setBusy(false);
        return;
      }
      window.location.assign("/sign-in");
    } catch (err) {
      setError(`Could not reach the server: ${err instanceof Error ? err.message : String(err)}`);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input name="name" autoComplete="name" />
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password (at least 12 characters)
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          required
        />
      </label>
      <label>
        Password again
        <input name="confirm" type="password" autoComplete="new-password" minLength={12} required />
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Create the admin
      </button>
    </form>
  );
}
