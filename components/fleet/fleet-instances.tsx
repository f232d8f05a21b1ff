"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { parseTableQuery, writeTableQuery } from "@/lib/fleet/table-state.ts";
import { instanceQueries } from "@/lib/queries/instances.ts";
import type { TableQuery } from "@/lib/zod/schemas/instance-query.ts";
import { Providers } from "../providers.tsx";
import { useSearchState } from "../use-search-state.ts";
import { InstanceTable } from "./instance-table.tsx";

// The fleet page's instance table (loaded after its first paint, fleet-lazy.tsx): its rows from
// /api/instances, its sort and filters in the URL. A failed request is also reported to the page,
// whose banner says so.

function Instances({
  canPrice,
  onError,
}: {
  canPrice: boolean;
  onError: (message: string | null) => void;
}) {
  const [params, setParams] = useSearchState();
  const tableKey = writeTableQuery(parseTableQuery(params)).toString();
  // Parsed once per distinct URL so the memoized table does not re-sort on every render.
  const query = useMemo(() => parseTableQuery(new URLSearchParams(tableKey)), [tableKey]);
  const instances = useQuery(instanceQueries.list());
  const message = instances.error ? instances.error.message : null;
  useEffect(() => onError(message), [message, onError]);
  const setQuery = (q: TableQuery) => setParams(writeTableQuery(q, params));

  if (instances.data)
    return (
      <InstanceTable
        rows={instances.data.rows}
        query={query}
        onChange={setQuery}
        canPrice={canPrice}
      />
    );
  if (instances.isError) return <p>Could not load instances: {instances.error.message}</p>;
  return (
    <p className="loading" role="status">
      Loading instances…
    </p>
  );
}

export function FleetInstances(props: {
  canPrice: boolean;
  onError: (message: string | null) => void;
}) {
  return (
    <Providers>
      <Instances {...props} />
    </Providers>
  );
}
