"use client";

// The catalogue's rows, one compact line each: what is priced, the price, since when and as of
// when. A row's source (with its links) and note open under it on demand, so 60-odd rows fit a
// screen or two instead of a dozen.
import { Fragment, useState, type ReactNode } from "react";
import type { ExchangeRateRow } from "@/lib/pricing/fx.ts";
import type { PricingRowDto } from "@/lib/zod/schemas/pricing.ts";
import { LocalTime } from "../time-zone.tsx";
import { convertedPriceText, RegionCell, StaleMark } from "./price-cells.tsx";
import { PricingSource } from "./pricing-source.tsx";

/** "¥11.63/h" on its line and "(≈ $1.60 at 0.13748728 of 2025-02)" under it, so the column stays narrow. */
function PriceText({ text }: { text: string }) {
  const i = text.indexOf(" (");
  if (i < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, i)} <span className="muted small price-conversion">{text.slice(i + 1)}</span>
    </>
  );
}

/** Prices start on UTC days: "2025-06-01", with the hour only when a row starts mid-day. */
export function effectiveDateText(iso: string): string {
  const d = new Date(iso);
  const day = d.toISOString().slice(0, 10);
  return d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0
    ? day
    : `${day} ${d.toISOString().slice(11, 16)} UTC`;
}

function EffectiveDate({ iso }: { iso: string }) {
  const full = new Date(iso).toISOString();
  return (
    <time dateTime={full} title={full}>
      {effectiveDateText(iso)}
    </time>
  );
}

export function PricingTable({
  rows,
  rates,
  now,
  actions,
  describe,
  pricingModelText,
  hourlyPriceText,
  originText,
}: {
  rows: readonly PricingRowDto[];
  rates: readonly ExchangeRateRow[] | null;
  now: Date;
  /** the Change and Retire buttons of a row; absent for people who only read */
  actions?: (r: PricingRowDto) => ReactNode;
  describe: (r: PricingRowDto) => string;
  pricingModelText: (m: string) => string;
  hourlyPriceText: (r: PricingRowDto) => string;
  originText: (r: PricingRowDto) => string;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const columns = actions ? 11 : 10;
  return (
    <table className="data pricing-table" data-testid="pricing-table">
      <thead>
        <tr>
          <th scope="col">Provider</th>
          <th scope="col">Instance type</th>
          <th scope="col">Region</th>
          <th scope="col">Pricing</th>
          <th scope="col">GPUs</th>
          <th className="num" scope="col">
            Price
          </th>
          <th scope="col">From (UTC)</th>
          <th scope="col">As of</th>
          <th scope="col">Origin</th>
          <th scope="col">Source</th>
          {actions ? <th scope="col" aria-label="Actions" /> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const expanded = open.has(r.id);
          const moreId = `price-more-${r.id}`;
          return (
            <Fragment key={r.id}>
              <tr
                data-testid="pricing-row"
                data-provider={r.provider}
                data-type={r.instanceType}
                data-region={r.region}
                data-model={r.pricingModel}
                data-origin={r.origin}
                data-retired={r.retiredAt ? "yes" : "no"}
                data-note={r.note ? "yes" : "no"}
                className={r.retiredAt ? "muted" : undefined}
              >
                <td>{r.provider}</td>
                <td className="mono">{r.instanceType}</td>
                <td>
                  <RegionCell region={r.region} />
                </td>
                <td>{pricingModelText(r.pricingModel)}</td>
                <td>
                  {r.gpuCount} × {r.gpuModel}
                </td>
                <td className="num" data-micros={r.usdPerHourMicros} data-currency={r.currency}>
                  <PriceText text={convertedPriceText(r, rates, now) ?? hourlyPriceText(r)} />
                </td>
                <td>
                  <EffectiveDate iso={r.effectiveFrom} />
                </td>
                <td className="small">
                  {r.sourceDate || "—"} <StaleMark sourceDate={r.sourceDate} now={now} />
                </td>
                <td className="small">
                  {originText(r)}
                  {r.retiredAt ? (
                    <div className="muted">
                      retired <LocalTime value={r.retiredAt} />
                      {r.retiredBy ? ` by ${r.retiredBy}` : ""}
                    </div>
                  ) : null}
                </td>
                <td>
                  <button
                    type="button"
                    className="link-button small"
                    aria-expanded={expanded}
                    aria-controls={expanded ? moreId : undefined}
                    aria-label={`${expanded ? "Hide" : "Show"} source${r.note ? " and note" : ""} of the ${describe(r)} price`}
                    onClick={() => toggle(r.id)}
                    data-testid="price-more"
                  >
                    {expanded ? "hide" : r.note ? "source, note" : "source"}
                  </button>
                </td>
                {actions ? <td className="actions">{actions(r)}</td> : null}
              </tr>
              {expanded ? (
                <tr id={moreId} className="pricing-more" data-testid="pricing-more">
                  <td colSpan={columns}>
                    <dl className="kv">
                      <dt>Source</dt>
                      <dd className="pricing-source">
                        <PricingSource text={r.source} />
                      </dd>
                      <dt>Note</dt>
                      <dd>{r.note ?? <span className="muted">—</span>}</dd>
                    </dl>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
