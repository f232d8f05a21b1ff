import { formatMoney } from "@/lib/format/money.ts";
import type { SavingsDto } from "@/lib/zod/schemas/policy.ts";
import { StartAgainButton } from "./start-again.tsx";

/** On the instance page: a policy stopped this host, for how long, and the money not spent. */
export function PolicyStopNote({
  rows,
  canStart,
}: {
  rows: SavingsDto["hosts"];
  /** an admin, and the host's open stop was made on the simulated cloud (startableOnSimulatedCloud) */
  canStart: boolean;
}) {
  if (rows.length === 0) return null;
  const hours = rows.reduce((s, r) => s + r.stoppedHours, 0);
  const saved = rows.reduce((s, r) => s + BigInt(r.savedMicros), 0n);
  const last = rows[rows.length - 1];
  return (
    <div className="banner" role="status" data-testid="policy-stop-note">
      <strong>Stopped by an idle-release policy</strong>{" "}
      {last?.resumedAt === null
        ? `since ${last.stoppedAt.slice(0, 16).replace("T", " ")} UTC`
        : "earlier this month"}
      : {hours.toFixed(1)} h stopped this month, {formatMoney(saved)} not spent.
      {canStart && last?.resumedAt === null ? <StartAgainButton hostId={last.hostId} /> : null}
    </div>
  );
}
