"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

function makeClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        // Polling continues in background tabs only when the tab is visible again.
        refetchIntervalInBackground: false,
        refetchOnWindowFocus: true,
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** One client per browser session (its cache outlives each provider), one per server render. */
function queryClient(): QueryClient {
  if (typeof window === "undefined") return makeClient();
  browserClient ??= makeClient();
  return browserClient;
}

/**
 * TanStack Query for the pages that use it. Not in the root layout: the fleet page loads TanStack
 * only after its first paint (issue 27), so each route folder whose views use queries wraps them
 * in its own layout.tsx, and the fleet page's lazy parts wrap themselves. Every provider hands out
 * the same browser client, so the cache is kept across pages as with one provider at the root.
 */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(queryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
