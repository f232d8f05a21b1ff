import type { Metadata } from "next";
import { Suspense } from "react";
import { CompareView } from "@/components/compare/compare-view.tsx";
import { CompareWork } from "@/components/work/compare-work.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { comparePageWork } from "@/lib/work/page-data.ts";
import "../styles/finance.css";

export const metadata: Metadata = { title: "Compare clouds" };

type Props = { searchParams: Promise<{ month?: string | string[] }> };

export default async function ComparePage({ searchParams }: Props) {
  const user = await requirePage("/compare");
  // measured work is an addition to the page: a metrics backend that fails it costs nothing else
  const work = await comparePageWork(await searchParams, {
    metrics: getMetricsSource(),
    scope: teamScope(user),
  }).catch(() => null);
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
      {work ? <CompareWork rows={work} /> : null}
    </>
  );
}
