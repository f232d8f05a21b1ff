import type { Metadata } from "next";
import { Suspense } from "react";
import { CostsView } from "@/components/costs/costs-view.tsx";
import { WorkByType } from "@/components/work/work-by-type.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { costsPageWork, workOrUnavailable } from "@/lib/work/page-data.ts";
import { WorkUnavailable } from "@/components/work/work-unavailable.tsx";
import "../styles/finance.css";

export const metadata: Metadata = { title: "Costs" };

type Props = { searchParams: Promise<{ month?: string | string[]; work?: string | string[] }> };

export default async function CostsPage({ searchParams }: Props) {
  const user = await requirePage("/costs");
  const work = await workOrUnavailable(
    "/costs",
    costsPageWork(await searchParams, { metrics: getMetricsSource(), scope: teamScope(user) }),
  );
  return (
    <>
      <Suspense
        fallback={
          <p className="loading" role="status">
            Loading costs…
          </p>
        }
      >
        <CostsView />
      </Suspense>
      {work.ok ? <WorkByType {...work.value} /> : <WorkUnavailable />}
    </>
  );
}
