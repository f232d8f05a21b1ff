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
  const [facts, stops, startable] =
    route.kind === "page"
      ? await Promise.all([
          getHostFacts(route.id, new Date()),
          hostPolicySavings(route.id),
          startableOnSimulatedCloud(route.id),
        ])
      : [null, [], false];
  return (
    <>
      <PolicyStopNote
        rows={stops}
        canStart={startable && roleAllows(user.role, "policies:write")}
      />
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
    </>
  );
}
