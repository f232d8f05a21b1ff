import type { Metadata } from "next";
import { SettingsView } from "@/components/settings/settings-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import { teamScope } from "@/lib/auth/scope.ts";
import "@/components/alerts/alerting.css";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = await requirePage("/settings");
  return (
    <SettingsView
      rules={roleAllows(user.role, "rules:write")}
      policies={
        roleAllows(user.role, "policies:write")
          ? "write"
          : roleAllows(user.role, "policies:read")
            ? "read"
            : "none"
      }
      channels={roleAllows(user.role, "channels:write")}
      // the catalogue and the rates are fleet-wide: a team-limited user reads them only
      pricing={roleAllows(user.role, "pricing:write") && teamScope(user) === null}
    />
  );
}
