import type { Metadata } from "next";
import { permanentRedirect } from "next/navigation";
import { Suspense } from "react";
import { InstanceView } from "@/components/instance/instance-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { PAGE_PERMISSIONS, roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import { getHostFacts } from "@/lib/fleet/get-host-facts.ts";
import { resolveInstance } from "@/lib/fleet/resolve-instance.ts";
import { hostPolicySavings } from "@/lib/policies/savings.ts";
import { startableOnSimulatedCloud } from "@/lib/policies/start-host.ts";
import { PolicyStopNote } from "@/components/policies/policy-stop-note.tsx";
import { InstanceWork } from "@/components/work/instance-work.tsx";
import { getMetricsSource } from "@/lib/metrics/index.ts";
import { getInstanceWork } from "@/lib/work/get-instance-work.ts";
import { listTrials } from "@/lib/work/trials.ts";
import { TrialList } from "@/components/work/trial-list.tsx";

export const metadata: Metadata = { title: "Instance" };

// `/instances/<hostname>` is the page; `/instances/<host id>` (the old address) answers 308 to it.
type Props = { params: Promise<{ id: string }> };

function decoded(key: string): string | null {
  try {
    const d = decodeURIComponent(key);
    return d === key ? null : d;
  } catch {
    return null;
  }
}

export default async function InstancePage({ params }: Props) {
  const { id: key } = await params;
  const user = await requirePage("/instances/[id]");
  const scope = teamScope(user);
  let route = await resolveInstance(key, scope);
  const again = route.kind === "missing" ? decoded(key) : null;
  if (again !== null) route = await resolveInstance(again, scope);
  if (route.kind === "redirect") permanentRedirect(route.to);
  // an unknown address renders the view, whose detail request answers 404: "not found" there
  const id = route.kind === "page" ? route.id : key;
  const showCost = roleAllows(user.role, "costs:read");
  const [facts, stops, startable, work, trials] =
    route.kind === "page"
      ? await Promise.all([
          getHostFacts(route.id, new Date()),
          hostPolicySavings(route.id),
          startableOnSimulatedCloud(route.id),
          // measured work is an addition to the page: a metrics backend that fails it costs nothing
          // else (the failure is logged, and the panel is left out)
          getInstanceWork(route.id, { metrics: getMetricsSource(), scope }).catch((e: unknown) => {
            console.error(`instance ${route.id}: measured work unavailable: ${String(e)}`);
            return null;
          }),
          showCost ? listTrials(scope, route.id) : [],
        ])
      : [null, [], false, null, []];
  return (
    <>
      <PolicyStopNote
        rows={stops}
        canStart={startable && roleAllows(user.role, "policies:write")}
      />
      {work ? (
        <InstanceWork
          rows={work.result.hosts}
          utilMean={work.utilMean}
          showCost={showCost}
          minimums={`a cost needs ${work.result.minimums.tokens.toLocaleString("en-US")} tokens (${work.result.minimums.otherUnits.toLocaleString("en-US")} of other units) and ${work.result.minimums.hours} hour`}
        />
      ) : null}
      <Suspense
        fallback={
          <p className="loading" role="status">
            Loading instance…
          </p>
        }
      >
        <InstanceView
          id={id}
          related={
            roleAllows(user.role, PAGE_PERMISSIONS["/alerts"]) &&
            roleAllows(user.role, PAGE_PERMISSIONS["/recommendations"])
          }
          canPrice={roleAllows(user.role, "pricing:write")}
          facts={facts}
        />
      </Suspense>
      {route.kind === "page" ? (
        <TrialList
          hostId={route.id}
          trials={trials}
          canMark={roleAllows(user.role, "benchmarks:write")}
        />
      ) : null}
    </>
  );
}
