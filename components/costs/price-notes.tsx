// The prices behind the month's figures, said plainly: stale catalogue rows (read over 90 days
// ago, with their dates), "*" fallback rows and which regions they stood in for, and the hosts
// priced in CNY with the exchange rates that converted their hours to USD.
import type { PriceNotes } from "@/lib/zod/schemas/price-notes.ts";
import { TableWrap } from "../table-wrap.tsx";

function rowLabel(u: PriceNotes["used"][number]): string {
  return `${u.provider} ${u.instanceType} ${u.pricingModel.replace(/_/g, "-")}`;
}

export function PriceNotesPanel({ notes }: { notes: PriceNotes }) {
  const stale = notes.used.filter((u) => u.stale);
  const fallbacks = notes.used.filter((u) => u.fallbackFor.length > 0);
  if (stale.length === 0 && fallbacks.length === 0 && notes.converted.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="price-notes-title" data-testid="price-notes">
      <div className="panel-head">
        <h2 id="price-notes-title">Prices behind these figures</h2>
        <span className="muted small">
          check stale prices on the settings page; after a change, re-price the month
        </span>
      </div>
      {stale.length > 0 ? (
        <>
          <h3 className="small">Stale prices (read more than 90 days ago)</h3>
          <ul data-testid="price-notes-stale">
            {stale.map((u) => (
              <li key={`${rowLabel(u)}|${u.region}|${u.effectiveFrom}`} data-testid="stale-price">
                <span className="mono">{rowLabel(u)}</span>{" "}
                {u.region === "*" ? "(fallback row)" : `(${u.region})`}: as of {u.sourceDate}
                {u.ageDays !== null ? `, ${u.ageDays} days ago` : ""}; {u.hosts.length} host
                {u.hosts.length === 1 ? "" : "s"}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {fallbacks.length > 0 ? (
        <>
          <h3 className="small">Priced from the any-region fallback</h3>
          <ul data-testid="price-notes-fallback">
            {fallbacks.map((u) => (
              <li key={`${rowLabel(u)}|${u.effectiveFrom}`}>
                <span className="mono">{rowLabel(u)}</span>:{" "}
                {u.fallbackFor.map((r) => `fallback (no ${r} price)`).join(", ")}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {notes.converted.length > 0 ? (
        <>
          <h3 className="small">Priced in another currency, converted to USD per hour</h3>
          <TableWrap label="Hosts priced in another currency">
            <table className="data" data-testid="price-notes-converted">
              <thead>
                <tr>
                  <th>Host</th>
                  <th>Currency</th>
                  <th>Rates used (US dollars per unit, as of)</th>
                </tr>
              </thead>
              <tbody>
                {notes.converted.map((c) => (
                  <tr key={c.hostname} data-testid="converted-host">
                    <td className="mono">{c.hostname}</td>
                    <td>{c.currency}</td>
                    <td className="wrap small">
                      {c.rates
                        .map((r) => `${r.usdPerUnit} (${r.sourceDate}${r.stale ? ", stale" : ""})`)
                        .join("; ")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      ) : null}
    </section>
  );
}
