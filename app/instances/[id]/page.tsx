import type { Metadata } from "next";
import { Suspense } from "react";
import { InstanceView } from "@/components/instance/instance-view.tsx";

export const metadata: Metadata = { title: "Instance" };

type Props = { params: Promise<{ id: string }> };

async function Instance({ params }: Props) {
  const { id } = await params;
  return <InstanceView id={id} />;
}

export default function InstancePage({ params }: Props) {
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading instance…
        </p>
      }
    >
      <Instance params={params} />
    </Suspense>
  );
}
