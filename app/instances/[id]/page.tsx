import type { Metadata } from "next";
import { Suspense } from "react";
import { InstanceView } from "@/components/instance/instance-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";
import { PAGE_PERMISSIONS, roleAllows } from "@/lib/auth/roles.ts";

export const metadata: Metadata = { title: "Instance" };

type Props = { params: Promise<{ id: string }> };

export default async function InstancePage({ params }: Props) {
  const { id } = await params;
  const user = await requirePage("/instances/[id]");
  return (
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
      />
    </Suspense>
  );
}
