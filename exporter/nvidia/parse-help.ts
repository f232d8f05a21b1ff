// `nvidia-smi --help-query-gpu` lists each valid field on its own line, quoted, with aliases:
//   "clocks_event_reasons.active" or "clocks_throttle_reasons.active"
// Description lines may also start with a quote ("0: Default" means ...), so a name must
// look like a field name to count.

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/;

export function parseHelpQueryGpu(text: string): Set<string> {
  const fields = new Set<string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line.startsWith('"')) continue;
    // The whole line must be a chain of quoted names joined by "or"; anything else is prose.
    if (!/^"[^"]+"(\s+or\s+"[^"]+")*$/.test(line)) continue;
    const names = [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
    if (names.every((n) => FIELD_NAME.test(n))) names.forEach((n) => fields.add(n));
  }
  return fields;
}
