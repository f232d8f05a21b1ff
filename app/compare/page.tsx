import type { Metadata } from "next";
import { Suspense } from "react";
import { CompareView } from "@/components/compare/compare-view.tsx";
import { CompareWork } from "@/components/work/compare-work.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { comparePageWork, workOrUnavailable } from "@/lib/work/page-data.ts";
import { WorkUnavailable } from "@/components/work/work-unavailable.tsx";
import "../styles/finance.css";

export const metadata: Metadata = { title: "Compare clouds" };

type Props = { searchParams: Promise<{ month?: string | string[] }> };

export default async function ComparePage({ searchParams }: Props) {
  const user = await requirePage("/compare");
  const work = await workOrUnavailable(
    "/compare",
    comparePageWork(await searchParams, { metrics: getMetricsSource(), scope: teamScope(user) }),
  );
  return (
    <>
      <Suspense
        fallback={
          <p className="loading" role="status">
            Loading the comparison…
          </p>
        }
      >
        <CompareView canWrite={roleAllows(user.role, "benchmarks:write")} />
      </Suspense>
      {work.ok ? <CompareWork rows={work.value} /> : <WorkUnavailable />}
    </>
  );
}
