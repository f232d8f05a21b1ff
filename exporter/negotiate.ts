// Content negotiation for /metrics, as Prometheus's client libraries do it: OpenMetrics when the
// scraper prefers it (Prometheus asks for it first by default), the 0.0.4 text format otherwise;
// gzip when Accept-Encoding allows it. A q of 0 refuses a type or an encoding.

import type { Format } from "./exposition.ts";

interface Range {
  type: string;
  params: Map<string, string>;
  q: number;
}

function parseList(header: string | undefined): Range[] {
  const out: Range[] = [];
  for (const part of (header ?? "").split(",")) {
    const [type = "", ...rest] = part.split(";").map((s) => s.trim());
    if (type === "") continue;
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf("=");
      if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
    }
    const q = params.has("q") ? Number(params.get("q")) : 1;
    out.push({ type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 });
  }
  return out;
}

/** OpenMetrics versions prom-client's rendering satisfies (it writes 1.0.0). */
const OPENMETRICS_VERSIONS = new Set([undefined, "1.0.0", "0.0.1"]);

export function negotiateFormat(accept: string | undefined): Format {
  let om = { q: 0, at: Infinity };
  let text = { q: 0, at: Infinity };
  parseList(accept).forEach((r, at) => {
    const version = r.params.get("version");
    if (r.type === "application/openmetrics-text" && OPENMETRICS_VERSIONS.has(version)) {
      if (r.q > om.q) om = { q: r.q, at };
    } else if (
      (r.type === "text/plain" && (version === undefined || version === "0.0.4")) ||
      r.type === "text/*" ||
      r.type === "*/*"
    ) {
      if (r.q > text.q) text = { q: r.q, at };
    }
  });
  return om.q > 0 && (om.q > text.q || (om.q === text.q && om.at < text.at))
    ? "openmetrics"
    : "text";
}

export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  let q: number | undefined;
  let star: number | undefined;
  for (const r of parseList(acceptEncoding)) {
    if (r.type === "gzip" || r.type === "x-gzip") q = Math.max(q ?? 0, r.q);
    else if (r.type === "*") star = r.q;
  }
  return (q ?? star ?? 0) > 0;
}
