import type { TrialDto } from "@/lib/work/trial-schema.ts";
import { TrialForm } from "./trial-form.tsx";

// The instance page's trial rentals: each window and, once it ended, its report's sentence.

const day = (iso: string) => iso.slice(0, 16).replace("T", " ");

export function TrialList({
  hostId,
  trials,
  canMark,
}: {
  hostId: string;
  trials: readonly TrialDto[];
  canMark: boolean;
}) {
  if (trials.length === 0 && !canMark) return null;
  return (
    <section className="panel" aria-labelledby="trials-title" data-testid="instance-trials">
      <div className="panel-head">
        <h2 id="trials-title">Trial rentals</h2>
        <span className="muted small">
          measured cost per unit of work over a window, compared with the types already running the
          same model; the label gpufleet.io/trial=&lt;name&gt; marks a trial too (UTC times)
        </span>
      </div>
      {trials.length > 0 ? (
        <ul className="plain">
          {trials.map((t) => (
            <li key={t.id} data-testid="trial-item">
              <strong>{t.name}</strong>{" "}
              <span className="muted small">
                {day(t.startsAt)} → {t.endsAt ? day(t.endsAt) : "while the label is there"}
              </span>
              <br />
              <span data-testid="trial-report">
                {t.report ? t.report.summary : "report when the window ends"}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {canMark ? <TrialForm hostId={hostId} /> : null}
    </section>
  );
}
