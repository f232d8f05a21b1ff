"use client";

import { useState } from "react";
import { keepResultSchema } from "@/lib/zod/schemas/policy.ts";

/** The keep page's one button: posts the link's token and shows what the server answered. */
export function KeepForm({ token }: { token: string }) {
  const [state, setState] = useState<{ busy: boolean; text: string | null; ok: boolean }>({
    busy: false,
    text: null,
    ok: false,
  });
  const keep = async () => {
    setState({ busy: true, text: null, ok: false });
    try {
      const res = await fetch("/api/policies/keep", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      const body: unknown = await res.json().catch(() => null);
      const ok = keepResultSchema.safeParse(body);
      if (res.ok && ok.success) {
        const until = new Date(ok.data.keepUntil).toISOString().replace("T", " ").slice(0, 16);
        setState({
          busy: false,
          ok: true,
          text: `Kept ${ok.data.run ? `${ok.data.run} on ` : ""}${ok.data.hostname} until ${until} UTC.`,
        });
      } else {
        const error = (body as { error?: unknown } | null)?.error;
        setState({ busy: false, ok: false, text: typeof error === "string" ? error : "failed" });
      }
    } catch (e) {
      setState({ busy: false, ok: false, text: (e as Error).message });
    }
  };
  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={state.busy || state.ok}
        onClick={() => void keep()}
        data-testid="keep-button"
      >
        Keep it
      </button>
      {state.text ? (
        <p className={state.ok ? "" : "field-error"} data-testid="keep-result" role="status">
          {state.text}
        </p>
      ) : null}
    </>
  );
}
