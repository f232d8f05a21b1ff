import type { Metadata } from "next";
import { SettingsView } from "@/components/settings/settings-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { roleAllows } from "@/lib/auth/roles.ts";
import "@/components/alerts/alerting.css";
import "../styles/finance.css";

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
    />
  );
}
