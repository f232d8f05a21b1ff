"use client";

import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "@/lib/format/time.ts";
import { policyQueries } from "@/lib/queries/policies.ts";
import type { ScaleSignalDto } from "@/lib/zod/schemas/policy.ts";
import { TableWrap } from "../table-wrap.tsx";

// The scale policies' signals (issue 25): per pool, scale out or in, the pool's figures (its share
// of GPU time past the mark, its hosts), the size it would set (dry run) or set (active), and the
// executor's answer. Shown only when a scale policy has signalled.

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function ScaleSignals() {
  const q = useQuery(policyQueries.scaleSignals());
  const rows: ScaleSignalDto[] = q.data?.signals ?? [];
  if (q.error) return <p className="field-error">{q.error.message}</p>;
  if (rows.length === 0) return null;
  return (
    <>
      <h3>Scale signals</h3>
      <TableWrap label="Scale signals">
        <table className="data" data-testid="scale-signals">
          <thead>
            <tr>
              <th>At (UTC)</th>
              <th>Pool</th>
              <th>Policy</th>
              <th>Signal</th>
              <th className="num">Share past the mark</th>
              <th className="num">Size</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id} data-testid="scale-signal-row">
                <td>{formatDateTime(s.at, "UTC")}</td>
                <td>{s.pool}</td>
                <td>
                  {s.policyName} <span className="muted small">({s.mode.replace("_", " ")})</span>
                </td>
                <td>{`${s.mode === "dry_run" ? "would scale" : "scale"} ${s.direction}`}</td>
                <td className="num">{pct(s.share)}</td>
                <td className="num">
                  {s.fromSize} → {s.toSize}
                </td>
                <td>
                  {s.state}
                  {s.detail ? <div className="muted small">{s.detail}</div> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}
