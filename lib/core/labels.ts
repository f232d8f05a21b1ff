/**
 * A JSON object of string labels as the store keeps them (Host.labels, rule exclusions). Anything
 * else (bad JSON, an array, non-string values) reads as no labels rather than failing a page.
 */
export function parseLabels(json: string): Record<string, string> {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
    return out;
  } catch {
    return {};
  }
}
