"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

// The instance page's "Mark as a trial": the host's measured cost per unit of work over the next
// hours is compared, when they end, with the types already running the same model.

const HOURS = [24, 48, 72, 168] as const;

export function TrialForm({ hostId }: { hostId: string }) {
  const router = useRouter();
  const [name, setName] = useState("trial");
  const [hours, setHours] = useState<number>(48);
  const [text, setText] = useState<string | null>(null);
  const submit = async () => {
    try {
      const res = await fetch("/api/work/trials", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ hostId, name, hours }),
      });
      const body = (await res.json().catch(() => null)) as { error?: string } | null;
      if (res.ok) {
        setText(`Trial started for ${hours} h: its report comes when the window ends.`);
        router.refresh();
      } else setText(body?.error ?? `failed (HTTP ${res.status})`);
    } catch {
      setText("no answer from the server: try again");
    }
  };
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      data-testid="trial-form"
    >
      <label>
        Trial name{" "}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={63} required />
      </label>{" "}
      <label>
        for{" "}
        <select value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {HOURS.map((h) => (
            <option key={h} value={h}>
              {h} h
            </option>
          ))}
        </select>
      </label>{" "}
      <button type="submit">Mark as a trial</button>
      {text ? (
        <span className="small" role="status">
          {" "}
          {text}
        </span>
      ) : null}
    </form>
  );
}
