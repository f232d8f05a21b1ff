"use client";

// The prices behind the month's figures, said in one line ("Priced from 33 catalogue rows: 2
// stale, 1 any-region fallback, 2 hosts converted from CNY") that opens, on demand, the lists:
// stale catalogue rows (read over 90 days ago, with their dates), "*" fallback rows and which
// regions they stood in for, and the hosts priced in CNY with the exchange rates that converted
// their hours to USD.
import Link from "next/link";
import { useState } from "react";
import type { PriceNotes } from "@/lib/zod/schemas/price-notes.ts";
import { TableWrap } from "../table-wrap.tsx";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Priced from 33 catalogue rows: 2 stale, 1 any-region fallback, 2 hosts converted from CNY". */
export function priceNotesSummary(notes: PriceNotes): string {
  const stale = notes.used.filter((u) => u.stale).length;
  const fallbacks = notes.used.filter((u) => u.fallbackFor.length > 0).length;
  const currencies = [...new Set(notes.converted.map((c) => c.currency))].sort();
  const parts = [
    stale > 0 ? `${stale} stale` : "none stale",
    fallbacks > 0 ? `${plural(fallbacks, "any-region fallback")}` : null,
    notes.converted.length > 0
      ? `${plural(notes.converted.length, "host")} converted from ${currencies.join(", ")}`
      : null,
  ].filter(Boolean);
  return `Priced from ${plural(notes.used.length, "catalogue row")}: ${parts.join(", ")}`;
}

function rowLabel(u: PriceNotes["used"][number]): string {
  return `${u.provider} ${u.instanceType} ${u.pricingModel.replace(/_/g, "-")}`;
}

export function PriceNotesPanel({ notes }: { notes: PriceNotes }) {
  const stale = notes.used.filter((u) => u.stale);
  const fallbacks = notes.used.filter((u) => u.fallbackFor.length > 0);
  const [open, setOpen] = useState(false);
  if (notes.used.length === 0 && notes.converted.length === 0) return null;
  const notable = stale.length > 0 || fallbacks.length > 0 || notes.converted.length > 0;
  const line = (
    <>
      <h2 id="price-notes-title" className="inline-title">
        Prices behind these figures
      </h2>
      <span className="muted"> · </span>
      <span data-testid="price-notes-line">{priceNotesSummary(notes)}</span>
    </>
  );
  return (
    <section
      className="panel price-notes"
      aria-labelledby="price-notes-title"
      data-testid="price-notes"
    >
      {!notable ? (
        <div className="disclosure-line">{line}</div>
      ) : (
        <details
          className="disclosure"
          data-testid="price-notes-details"
          onToggle={(e) => setOpen(e.currentTarget.open)}
        >
          <summary data-testid="price-notes-summary">
            {line} <span className="disclosure-verb">{open ? "hide" : "show"}</span>
          </summary>
          <p className="muted small">
            check stale prices in the <Link href="/settings/pricing">pricing catalogue</Link>; after
            a change, re-price the month there
          </p>
          {stale.length > 0 ? (
            <>
              <h3 className="small">Stale prices (read more than 90 days ago)</h3>
              <ul data-testid="price-notes-stale">
                {stale.map((u) => (
                  <li
                    key={`${rowLabel(u)}|${u.region}|${u.effectiveFrom}`}
                    data-testid="stale-price"
                  >
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
                            .map(
                              (r) => `${r.usdPerUnit} (${r.sourceDate}${r.stale ? ", stale" : ""})`,
                            )
                            .join("; ")}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            </>
          ) : null}
        </details>
      )}
    </section>
  );
}
