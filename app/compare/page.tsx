import type { Metadata } from "next";
import { Suspense } from "react";
import { CompareView } from "@/components/compare/compare-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import "../styles/finance.css";

export const metadata: Metadata = { title: "Compare clouds" };

export default async function ComparePage() {
  const user = await requirePage("/compare");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading the comparison…
        </p>
      }
    >
      <CompareView canWrite={roleAllows(user.role, "benchmarks:write")} />
    </Suspense>
  );
}
