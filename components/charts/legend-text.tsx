import type { ReactNode } from "react";

/** The page's ink (--ink): chart words read on the white panels whatever the series colour. */
export const CHART_INK = "#1b1f24";
/** The page's muted grey (--muted), 5.9:1 on white, for axis words. */
export const CHART_MUTED = "#5b6470";

/**
 * Legend words for Recharts' `formatter`. Recharts colours a legend's words like its swatch, and
 * light series colours (yellow, orange, sky blue) are unreadable on white; the swatch keeps the
 * series colour and the words take the ink colour.
 */
export function legendText(value: ReactNode): ReactNode {
  return (
    <span className="chart-legend-text" style={{ color: CHART_INK }}>
      {value}
    </span>
  );
}

/** Tooltip rows in the ink colour too (Recharts colours them like their series). */
export const TOOLTIP_ITEM_STYLE = { color: CHART_INK } as const;
