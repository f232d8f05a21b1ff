import { renderToString } from "react-dom/server";
import { expect, it } from "vitest";
import { FocusExport } from "./focus-export.tsx";

// The costs page's FOCUS control: its link asks the export route for the month shown, in the
// default format and granularity, and the page says in a line what FOCUS is.
it("links the month's FOCUS 1.2 download and explains FOCUS", () => {
  const html = renderToString(<FocusExport month="2026-11" />);
  expect(html).toContain(
    'href="/api/costs/focus?format=csv&amp;granularity=daily&amp;month=2026-11"',
  );
  expect(html).toContain("Download FOCUS 1.2");
  expect(html).toMatch(/<option value="parquet">Parquet<\/option>/);
  expect(html).toMatch(/<option value="hourly">per host per hour<\/option>/);
  expect(html).toContain("FinOps Foundation");
});
