import { legendStops, STATUS_LABELS } from "./util-scale.ts";

// The grid's legend, apart from the grid (gpu-grid.tsx): the legend is in the fleet page's first
// paint, the grid only in an opened group (loaded later, issue 27).

export function GpuLegend() {
  return (
    <ul className="legend" aria-label="Legend">
      <li>
        <span>SM utilization 0%</span>
        <span className="legend-ramp" aria-hidden="true">
          {legendStops(6).map((s) => (
            <span key={s.util} style={{ background: s.color }} />
          ))}
        </span>
        <span>100%</span>
      </li>
      {(["held_idle", "empty_idle", "mig", "not_reporting"] as const).map((s) => (
        <li key={s}>
          <span className={`cell ${s}`} aria-hidden="true" />
          {STATUS_LABELS[s]}
          {s === "held_idle" ? " (memory or process, SM < 5%)" : ""}
          {s === "empty_idle" ? " (SM < 5%)" : ""}
        </li>
      ))}
    </ul>
  );
}
