"use client";

import { useRef, useState, useSyncExternalStore } from "react";
import type { CreatedTokenDto } from "@/lib/queries/admin.ts";
import { curlExample, prometheusScrapeExample } from "./admin-bits.ts";

const subscribe = () => () => {};

/** The app's origin as the browser sees it ("" while rendering on the server). */
function useOrigin(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => "",
  );
}

type CopyState = "idle" | "copied" | "select";

/** The new token's secret, shown once, with a copy button and ready-to-use examples. */
export function TokenSecret({ created, onDone }: { created: CreatedTokenDto; onDone: () => void }) {
  const origin = useOrigin();
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<CopyState>("idle");
  const selectAll = () => {
    input.current?.focus();
    input.current?.select();
  };
  const copyToken = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(created.token);
      setCopy("copied");
    } catch {
      // no clipboard access (plain http, permissions): select it for Ctrl+C / ⌘C instead
      selectAll();
      setCopy("select");
    }
  };
  return (
    <div
      className="token-secret"
      role="region"
      aria-labelledby="token-secret-title"
      data-testid="token-secret"
    >
      <h3 id="token-secret-title">
        New {created.scope === "write" ? "read-write" : "read-only"} token “{created.name}”
      </h3>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> The server keeps only its hash; if
        it is lost, revoke it and create another.
      </p>
      <div className="token-secret-value">
        <label htmlFor="token-secret-input" className="sr-only">
          API token
        </label>
        <input
          id="token-secret-input"
          ref={input}
          className="mono"
          type="text"
          readOnly
          // focused (and so selected) as it appears: ready for Ctrl+C, announced by screen readers
          autoFocus
          value={created.token}
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
          data-testid="token-secret-value"
        />
        <button
          type="button"
          className="primary"
          onClick={() => void copyToken()}
          data-testid="token-copy"
        >
          Copy
        </button>
        <span role="status" className="small">
          {copy === "copied"
            ? "Copied to the clipboard."
            : copy === "select"
              ? "Could not reach the clipboard: the token is selected, press Ctrl+C (⌘C)."
              : ""}
        </span>
      </div>
      <p className="small">Call the API with it:</p>
      <pre className="snippet" data-testid="token-curl">
        {curlExample(origin, created.token)}
      </pre>
      <p className="small">
        Or let Prometheus scrape the app&apos;s own metrics (
        <span className="mono">/api/metrics</span>
        ):
      </p>
      <pre className="snippet" data-testid="token-prometheus">
        {prometheusScrapeExample(origin, created.token)}
      </pre>
      <div className="form-actions">
        <button type="button" onClick={onDone} data-testid="token-secret-done">
          Done, I have copied it
        </button>
      </div>
    </div>
  );
}
