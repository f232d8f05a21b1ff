// Prometheus text exposition → samples. Written here because the npm parser we tried
// (parse-prometheus-text-format 1.1) rejects a whole scrape on a HELP line without text,
// and one odd line must never cost the rest of a scrape.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedExposition {
  samples: Sample[];
  /** lines that could not be parsed (kept for the target's error message) */
  invalid: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

function parseValue(text: string): number | null {
  switch (text) {
    case "NaN":
      return Number.NaN;
    case "+Inf":
    case "Inf":
      return Number.POSITIVE_INFINITY;
    case "-Inf":
      return Number.NEGATIVE_INFINITY;
  }
  const n = Number(text);
  return text.length > 0 && Number.isFinite(n) ? n : null;
}

/** Parses `{a="x",b="y\"z"}` starting at `start` (the `{`); returns labels and the index after `}`. */
function parseLabels(line: string, start: number): [Record<string, string>, number] | null {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    while (line[i] === " " || line[i] === ",") i++;
    if (line[i] === "}") return [labels, i + 1];
    const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i));
    if (!m) return null;
    const key = m[0];
    i += key.length;
    while (line[i] === " ") i++;
    if (line[i] !== "=" || line[i + 1] !== '"') return null;
    i += 2;
    let value = "";
    for (;;) {
      const c = line[i];
      if (c === undefined) return null;
      if (c === '"') break;
      if (c === "\\") {
        const next = line[i + 1];
        value += next === "n" ? "\n" : (next ?? "");
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    labels[key] = value;
    i++;
  }
}

export function parseExposition(text: string): ParsedExposition {
  const samples: Sample[] = [];
  let invalid = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = NAME.exec(line);
    if (!m) {
      invalid++;
      continue;
    }
    const name = m[0];
    let rest = name.length;
    let labels: Record<string, string> = {};
    if (line[rest] === "{") {
      const parsed = parseLabels(line, rest);
      if (!parsed) {
        invalid++;
        continue;
      }
      [labels, rest] = parsed;
    }
    const valueText = line.slice(rest).trim().split(/\s+/)[0] ?? "";
    const value = parseValue(valueText);
    if (value === null) {
      invalid++;
      continue;
    }
    samples.push({ name, labels, value });
  }
  return { samples, invalid };
}
