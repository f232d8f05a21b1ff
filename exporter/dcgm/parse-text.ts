// A Prometheus text-format sample parser for dcgm-exporter's /metrics. The installed
// parse-prometheus-text-format throws on an empty "# HELP name" line, which dcgm-exporter
// prints, so this reads samples only and skips every comment line.

import type { ParseResult } from "../readings.ts";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
/** sticky: matched at lastIndex without copying the rest of the line */
const LABEL_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;

const VALUE = /^\s*(\S*)/;

function parseValue(text: string): number | undefined {
  const v = VALUE.exec(text)?.[1] ?? ""; // a timestamp may follow the value
  if (v === "+Inf" || v === "Inf") return Infinity;
  if (v === "-Inf") return -Infinity;
  if (v === "NaN") return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return undefined;
  return Number(v);
}

/**
 * Parses `{a="x",b="y\"z"}` from text[start] === "{"; returns labels and the rest. Values are
 * sliced between escapes, not built a character at a time: the simulator reads ~70,000
 * dcgm-exporter lines per tick for a 1,000-host fleet.
 */
function parseLabels(
  text: string,
  start: number,
): { labels: Record<string, string>; rest: string } | string {
  const labels: Record<string, string> = {};
  let i = start + 1;
  let escape = text.indexOf("\\", i);
  for (;;) {
    while (text[i] === " " || text[i] === ",") i++;
    if (text[i] === "}") return { labels, rest: text.slice(i + 1) };
    LABEL_NAME.lastIndex = i;
    const m = LABEL_NAME.exec(text);
    if (!m) return "bad label name";
    i += m[0].length;
    while (text[i] === " ") i++;
    if (text[i] !== "=" || text[i + 1] !== '"') return `label ${m[0]} has no quoted value`;
    i += 2;
    let value = "";
    for (;;) {
      const quote = text.indexOf('"', i);
      if (quote === -1) return "unterminated label value";
      if (escape !== -1 && escape < i) escape = text.indexOf("\\", i);
      if (escape === -1 || escape > quote) {
        value += text.slice(i, quote);
        i = quote;
        break;
      }
      const next = text[escape + 1];
      if (next === undefined) return "unterminated label value";
      value += text.slice(i, escape) + (next === "n" ? "\n" : next);
      i = escape + 2;
    }
    labels[m[0]] = value;
    i++;
  }
}

export function parsePrometheusText(text: string): ParseResult<Sample> {
  const items: Sample[] = [];
  const warnings: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const name = NAME.exec(line)?.[0];
    if (!name) {
      warnings.push(`no metric name: ${line.slice(0, 120)}`);
      continue;
    }
    let rest = "";
    let labels: Record<string, string> = {};
    if (line[name.length] !== "{") rest = line.slice(name.length);
    else {
      const r = parseLabels(line, name.length);
      if (typeof r === "string") {
        warnings.push(`${r}: ${line.slice(0, 120)}`);
        continue;
      }
      ({ labels, rest } = r);
    }
    const value = parseValue(rest);
    if (value === undefined) {
      warnings.push(`bad value: ${line.slice(0, 120)}`);
      continue;
    }
    items.push({ name, labels, value });
  }
  return { items, warnings };
}
