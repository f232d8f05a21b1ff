"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatInteger } from "@/lib/format/number.ts";
import { fleetQueries } from "@/lib/queries/fleet.ts";
import { MAX_GPU_PAGE, type GroupBy } from "@/lib/zod/schemas/fleet-values.ts";
import { Providers } from "../providers.tsx";
import { GpuGrid } from "./gpu-grid.tsx";

// An open group's GPUs, a page at a time from /api/fleet/gpus. Loaded only when a group is opened
// (fleet-lazy.tsx), with TanStack Query, so neither is in the fleet page's first load.

interface Props {
  by: GroupBy;
  groupKey: string;
  total: number;
}

export function GroupCells({ by, groupKey, total }: Props) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(total / MAX_GPU_PAGE));
  const q = useQuery(fleetQueries.gpus(by, groupKey, Math.min(page, pages), MAX_GPU_PAGE));
  if (q.isError) return <p className="muted">Could not load these GPUs: {q.error.message}</p>;
  if (!q.data)
    return (
      <p className="loading" role="status">
        Loading GPUs…
      </p>
    );
  return (
    <>
      <GpuGrid grid={q.data.gpus} />
      {q.data.pages > 1 ? (
        <div className="pager">
          <span className="muted small">
            page {q.data.page} of {q.data.pages} ({formatInteger(q.data.total)} GPUs)
          </span>
          <button
            type="button"
            disabled={q.data.page <= 1}
            onClick={() => setPage(q.data.page - 1)}
          >
            Previous
          </button>
          <button
            type="button"
            disabled={q.data.page >= q.data.pages}
            onClick={() => setPage(q.data.page + 1)}
          >
            Next
          </button>
        </div>
      ) : null}
    </>
  );
}

/** GroupCells with the query client it needs (the fleet page has no provider of its own). */
export function GroupCellsIsland(props: Props) {
  return (
    <Providers>
      <GroupCells {...props} />
    </Providers>
  );
}
