import type { Metadata } from "next";
import { AdminView } from "@/components/admin/admin-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import "@/components/alerts/alerting.css";
import "@/components/admin/admin.css";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  const user = await requirePage("/admin");
  return <AdminView currentUserId={user.id} />;
}
