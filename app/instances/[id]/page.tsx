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
import { workOrUnavailable } from "@/lib/work/page-data.ts";
import { WorkUnavailable } from "@/components/work/work-unavailable.tsx";
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
          workOrUnavailable(
            `/instances/${route.id}`,
            getInstanceWork(route.id, { metrics: getMetricsSource(), scope }),
          ),
          showCost ? listTrials(scope, route.id) : [],
        ])
      : [null, [], false, null, []];
  return (
    <>
      <PolicyStopNote
        rows={stops}
        canStart={startable && roleAllows(user.role, "policies:write")}
      />
      {work && !work.ok ? <WorkUnavailable /> : null}
      {work?.ok ? (
        <InstanceWork
          rows={work.value.result.hosts}
          utilMean={work.value.utilMean}
          showCost={showCost}
          minimums={`a cost needs ${work.value.result.minimums.tokens.toLocaleString("en-US")} tokens (${work.value.result.minimums.otherUnits.toLocaleString("en-US")} of other units) and ${work.value.result.minimums.hours} hour`}
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
