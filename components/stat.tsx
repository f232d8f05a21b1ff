import type { ReactNode } from "react";

export function Stat({
  label,
  value,
  sub,
  testId,
  data,
}: {
  label: string;
  value: ReactNode;
  sub?: ReactNode;
  testId: string;
  /** extra data-* attributes so tests read exact numbers rather than formatted text */
  data?: Record<`data-${string}`, string | number>;
}) {
  return (
    <div className="stat" data-testid={testId} {...data}>
      <div className="stat-label">{label}</div>
      <div className="stat-value" data-testid={`${testId}-value`}>
        {value}
      </div>
      {sub ? <div className="stat-sub">{sub}</div> : null}
    </div>
  );
}
