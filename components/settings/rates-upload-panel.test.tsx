import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ratesUploadProblem, ratesUploadUrl } from "@/lib/pricing/rates-upload.ts";
import { ApiRequestError } from "@/lib/queries/settings-send.ts";
import { RatesUploadPanel, RatesUploadPreview } from "./rates-upload-panel.tsx";
import { UploadError } from "./upload-flow.tsx";

// The exchange-rate upload on /settings/pricing: a .csv file, a preview of the series and the
// rates it would add (conflicts left as they are), a refusal listing the file's bad lines.

/** The markup without React's text-node separators. */
const render = (el: React.ReactElement) => renderToString(el).replaceAll("<!-- -->", "");

describe("RatesUploadPanel", () => {
  it("asks for a file before a preview", () => {
    const html = render(
      <QueryClientProvider client={new QueryClient()}>
        <RatesUploadPanel />
      </QueryClientProvider>,
    );
    expect(html).toContain("Import exchange rates");
    expect(html).toContain('accept=".csv,text/csv"');
    expect(html).toMatch(/<button type="submit" disabled="" data-testid="rates-upload-preview">/);
    expect(html).not.toContain("rates-upload-apply");
  });

  it("checks the file and names the upload in the request", () => {
    expect(ratesUploadProblem(null)).toBe("choose a file");
    expect(ratesUploadProblem({ name: "FRB_H10.json", size: 10 })).toMatch(/\.csv file/);
    expect(ratesUploadProblem({ name: "FRB_H10.csv", size: 5 * 2 ** 20 })).toMatch(
      /5\.0 MiB; uploads stop at 4 MiB: .*npm run rates:import/,
    );
    expect(ratesUploadProblem({ name: "FRB_H10.csv", size: 300_000 })).toBeNull();
    expect(ratesUploadUrl("my rates/FRB H10.csv", "apply")).toBe(
      "/api/pricing/rates/import?file=FRB+H10.csv&mode=apply",
    );
  });
});

describe("RatesUploadPreview", () => {
  it("lists each series with its span and ND days, the counts and the conflicts", () => {
    const html = render(
      <RatesUploadPreview
        r={{
          dryRun: true,
          added: 2,
          unchanged: 1,
          conflicts: [
            {
              currency: "EUR",
              effectiveFrom: "2026-09-04T00:00:00.000Z",
              existing: "1.1618",
              imported: "1.1999",
              origin: "user",
            },
          ],
          span: { CNY: ["2026-08-21", "2026-08-21"], EUR: ["2026-09-04", "2026-09-08"] },
          series: [
            { series: "RXI_N.B.CH", currency: "CNY", rates: 1, noData: 3 },
            { series: "RXI$US_N.B.EU", currency: "EUR", rates: 2, noData: 2 },
          ],
          summary: ["would add 2 rate(s), 1 already there"],
        }}
      />,
    );
    expect(html).toContain(
      'CNY <span class="mono">RXI_N.B.CH</span>: 1 rates from 2026-08-21 to 2026-08-21, 3 days without a rate (ND) skipped',
    );
    expect(html).toContain("2 rates to add, 1 already stored, 1 conflicts.");
    expect(html).toContain("EUR from 2026-09-04: stored 1.1618 (user), the file says 1.1999");
  });
});

describe("UploadError", () => {
  it("lists a refused file's bad lines, or says the message", () => {
    const refused = new ApiRequestError(400, "bad.csv: not imported, nothing written: …", [
      { path: "line 8", message: "3 fields, expected 2" },
      { path: "line 10", message: '"2026-09-31" is not a date (YYYY-MM-DD)' },
    ]);
    const listed = render(
      <UploadError error={refused} applyFailed={false} testId="e" listIssues />,
    );
    expect(listed).toContain("<strong>Not read</strong> 2 problems, nothing written:");
    expect(listed).toContain("<li>line 8: 3 fields, expected 2</li>");
    expect(listed).toContain("<li>line 10: &quot;2026-09-31&quot; is not a date (YYYY-MM-DD)</li>");
    const plain = render(
      <UploadError error={new Error("the file is too large")} applyFailed testId="e" />,
    );
    expect(plain).toContain("<strong>Not imported</strong> the file is too large");
    expect(render(<UploadError error={null} applyFailed={false} testId="e" />)).toBe("");
  });
});
