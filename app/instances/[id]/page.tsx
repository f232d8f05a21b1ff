import type { Metadata } from "next";
import { Suspense } from "react";
import { InstanceView } from "@/components/instance/instance-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";

export const metadata: Metadata = { title: "Instance" };

type Props = { params: Promise<{ id: string }> };

export default async function InstancePage({ params }: Props) {
  const { id } = await params;
  await requirePage("/instances/[id]");
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading instance…
        </p>
      }
    >
      <InstanceView id={id} />
    </Suspense>
  );
}
