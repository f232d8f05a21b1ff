import type { Metadata } from "next";
import { PricingView } from "@/components/settings/pricing-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import "../../styles/finance.css";

export const metadata: Metadata = { title: "Pricing catalogue" };

export default async function PricingPage() {
  const user = await requirePage("/settings/pricing");
  // the catalogue and the rates are fleet-wide: a team-limited user reads them only
  return (
    <PricingView canWrite={roleAllows(user.role, "pricing:write") && teamScope(user) === null} />
  );
}
