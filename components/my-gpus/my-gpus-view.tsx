"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatMoney } from "@/lib/format/money.ts";
import { formatRatio } from "@/lib/format/number.ts";
import { fetchJson, retryTransient } from "@/lib/queries/fetch-json.ts";
import { myGpusSchema } from "@/lib/zod/schemas/my-gpus.ts";
import { Stat } from "../stat.tsx";
import { TableWrap } from "../table-wrap.tsx";
import { LocalTime } from "../time-zone.tsx";

// "My GPUs" (issue 24): the GPUs the signed-in person holds now, and the idle alerts about them.

export function MyGpusView() {
  const q = useQuery({
    queryKey: ["me", "gpus"],
    queryFn: ({ signal }) => fetchJson("/api/me/gpus", myGpusSchema, signal),
    refetchInterval: 30_000,
    retry: retryTransient,
  });
  const d = q.data;
  return (
    <>
      <div className="page-title">
        <h1>My GPUs</h1>
        {d?.mapped ? <p data-testid="my-gpus-as">as {d.as.join(", ")}</p> : null}
      </div>
      {q.error ? <p className="field-error">{q.error.message}</p> : null}
      {!d ? (
        <p className="loading" role="status">
          Loading…
        </p>
      ) : !d.mapped ? (
        <p className="panel empty" data-testid="my-gpus-unmapped">
          Your email address is not in the people directory, so no GPU holder is known to be you. An
          admin can add you on the admin page (People directory).
        </p>
      ) : (
        <>
          <section className="stats" aria-label="My totals">
            <Stat label="GPUs held now" value={String(d.gpus.length)} testId="my-held" />
            <Stat
              label="Idle now"
              value={String(d.gpus.filter((g) => g.state === "idle").length)}
              testId="my-idle"
            />
            <Stat
              label="This month"
              value={formatMoney(d.monthMicros, d.currency)}
              testId="my-month"
            />
            <Stat
              label="Of it idle"
              value={formatMoney(d.monthIdleMicros, d.currency)}
              testId="my-month-idle"
            />
          </section>
          <section className="panel" aria-labelledby="my-gpus-title">
            <h2 id="my-gpus-title">Held now</h2>
            {d.gpus.length === 0 ? (
              <p className="muted">You hold no GPU right now.</p>
            ) : (
              <TableWrap label="My GPUs table">
                <table className="data" data-testid="my-gpus-table">
                  <thead>
                    <tr>
                      <th scope="col">Instance</th>
                      <th scope="col">GPU</th>
                      <th scope="col">State</th>
                      <th className="num" scope="col">
                        SM util.
                      </th>
                      <th scope="col">Held by</th>
                      <th scope="col">Since</th>
                      <th className="num" scope="col">
                        Per hour
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.gpus.map((g) => (
                      <tr key={g.uuid} data-testid="my-gpu-row" data-state={g.state}>
                        <td>
                          <Link href={`/instances/${encodeURIComponent(g.hostname)}`}>
                            {g.hostname}
                          </Link>
                        </td>
                        <td title={g.uuid}>
                          {g.index} · {g.name}
                        </td>
                        <td>{g.state.replace("_", " ")}</td>
                        <td className="num">{formatRatio(g.util)}</td>
                        <td className="holder-list">
                          {g.holders.map((h, i) => (
                            <span key={`${i}-${h}`}>{h}</span>
                          ))}
                        </td>
                        <td>{g.heldSince ? <LocalTime value={g.heldSince} /> : "this hour"}</td>
                        <td className="num">
                          {g.perHourMicros === null
                            ? "unpriced"
                            : formatMoney(g.perHourMicros, d.currency)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </section>
          <section className="panel" aria-labelledby="my-alerts-title">
            <h2 id="my-alerts-title">Alerts about them</h2>
            {d.alerts.length === 0 ? (
              <p className="muted">No open alerts.</p>
            ) : (
              <ul data-testid="my-gpu-alerts">
                {d.alerts.map((a) => (
                  <li key={a.id}>
                    <Link href="/alerts">{a.summary}</Link> ({a.state}, since{" "}
                    <LocalTime value={a.startsAt} />)
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
