"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * URL query state without a server round trip: Next keeps useSearchParams in sync with the native
 * History API, so filters and ranges update the address bar (shareable, survives reload) instantly.
 */
export function useSearchState(): [
  URLSearchParams,
  (next: URLSearchParams, mode?: "replace" | "push") => void,
] {
  const params = useSearchParams();
  const update = useCallback((next: URLSearchParams, mode: "replace" | "push" = "replace") => {
    const qs = next.toString();
    const url = `${window.location.pathname}${qs ? `?${qs}` : ""}`;
    if (mode === "push") window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }, []);
  // null outside the App Router (a component rendered on its own, as in tests)
  return [new URLSearchParams(params?.toString() ?? ""), update];
}
