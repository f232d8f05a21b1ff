// A catalogue row's source text with each URL shown as a link naming only its host (the full URL
// stays in href and title), so "AWS EC2 On-Demand pricing, https://aws.amazon.com/ec2/pricing/…"
// reads "AWS EC2 On-Demand pricing, aws.amazon.com" and fits its column.

export type SourcePart =
  { kind: "text"; text: string } | { kind: "url"; href: string; host: string };

// up to whitespace; closing punctuation after the URL stays text
const URL_RE = /https?:\/\/[^\s<>"]+?(?=[.,;:!?)\]]*(?:\s|$))/g;

/** Splits source text into plain text and http(s) URLs; a URL that does not parse stays text. */
export function splitSourceText(text: string): SourcePart[] {
  const parts: SourcePart[] = [];
  const pushText = (t: string) => {
    if (!t) return;
    const last = parts[parts.length - 1];
    if (last?.kind === "text") last.text += t;
    else parts.push({ kind: "text", text: t });
  };
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    const start = m.index;
    pushText(text.slice(at, start));
    try {
      const url = new URL(m[0]);
      parts.push({ kind: "url", href: url.href, host: url.host });
    } catch {
      pushText(m[0]);
    }
    at = start + m[0].length;
  }
  pushText(text.slice(at));
  return parts;
}

export function PricingSource({ text }: { text: string }) {
  return (
    <>
      {splitSourceText(text).map((p, i) =>
        p.kind === "url" ? (
          <a
            key={i}
            href={p.href}
            title={p.href}
            rel="noreferrer"
            data-testid="pricing-source-link"
          >
            {p.host}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}
