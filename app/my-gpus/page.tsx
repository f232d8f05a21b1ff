import type { Metadata } from "next";
import { MyGpusView } from "@/components/my-gpus/my-gpus-view.tsx";
import { requirePage } from "@/lib/auth/page.ts";

export const metadata: Metadata = { title: "My GPUs" };

export default async function MyGpusPage() {
  await requirePage("/my-gpus");
  return <MyGpusView />;
}
