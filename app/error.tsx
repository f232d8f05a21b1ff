"use client";

export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const message = error instanceof Error ? error.message : "unexpected error";
  return (
    <section className="banner error" role="alert">
      <strong>Something went wrong</strong>
      <span>{message}</span>
      <button type="button" onClick={() => retry()}>
        Try again
      </button>
    </section>
  );
}
