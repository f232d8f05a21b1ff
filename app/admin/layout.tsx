import type { ReactNode } from "react";
import { Providers } from "@/components/providers.tsx";

// TanStack Query for this folder's pages (not in the root layout: see components/providers.tsx)
export default function QueryLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
