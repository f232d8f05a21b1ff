/** Where a page's measured-work panel would be, when the metrics backend could not give it. */
export function WorkUnavailable() {
  return (
    <p className="muted small" role="status" data-testid="work-unavailable">
      Measured work (tokens, samples) could not be read from the metrics backend just now; the rest
      of the page is unaffected. Reload to try again.
    </p>
  );
}
