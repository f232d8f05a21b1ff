"use client";

import { useState } from "react";

/** The instance page's "Start again" for a host a policy stopped on the simulated cloud. */
export function StartAgainButton({ hostId }: { hostId: string }) {
  const [text, setText] = useState<string | null>(null);
  const start = async () => {
    try {
      const res = await fetch(`/api/policies/hosts/${encodeURIComponent(hostId)}/start`, {
        method: "POST",
      });
      const body = (await res.json().catch(() => null)) as { error?: string } | null;
      setText(
        res.ok
          ? "Started: it reports again within a collection interval."
          : (body?.error ?? `failed (HTTP ${res.status})`),
      );
    } catch {
      // the request never got an answer (offline, the server restarting): say so, never nothing
      setText("no answer from the server: try again");
    }
  };
  return (
    <>
      {" "}
      <button type="button" onClick={() => void start()} data-testid="policy-start-again">
        Start again
      </button>
      {text ? <span className="small"> {text}</span> : null}
    </>
  );
}
