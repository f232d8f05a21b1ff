import type { Metadata } from "next";
import { Suspense } from "react";
import { CostsView } from "@/components/costs/costs-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import "../styles/finance.css";

export const metadata: Metadata = { title: "Costs" };

export default async function CostsPage() {
  await requirePage("/costs");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading costs…
        </p>
      }
    >
      <CostsView />
    </Suspense>
  );
}
