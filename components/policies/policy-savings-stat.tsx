"use client";

import { useQuery } from "@tanstack/react-query";
import { monthOf } from "@/lib/core/months.ts";
import { formatMoney } from "@/lib/format/money.ts";
import { policySavingsQuery } from "@/lib/queries/policies.ts";
import { Stat } from "../stat.tsx";

/** "Saved by policies": money not spent on hosts a policy stopped, apart from possible savings. */
export function PolicySavingsStat({ month }: { month?: string }) {
  const q = useQuery(policySavingsQuery(month));
  const d = q.data;
  const hours = d ? d.hosts.reduce((s, h) => s + h.stoppedHours, 0) : 0;
  return (
    <Stat
      testId="policy-savings"
      label={
        !month || month === monthOf(new Date())
          ? "Saved by policies this month"
          : "Saved by policies"
      }
      value={d ? formatMoney(d.savedMicros) : q.error ? "—" : "…"}
      sub={
        d
          ? d.hosts.length === 0
            ? "no host stopped by a policy"
            : `${d.hosts.length} host${d.hosts.length === 1 ? "" : "s"} stopped, ${hours.toFixed(1)} h: ${d.hosts
                .map((h) => `${h.hostname} ${h.stoppedHours.toFixed(1)} h`)
                .join(", ")}`
          : undefined
      }
      data={{ "data-micros": d?.savedMicros ?? "" }}
    />
  );
}
