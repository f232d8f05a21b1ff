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
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

function parseValue(text: string): number | undefined {
  const v = text.trim().split(/\s+/)[0] ?? ""; // a timestamp may follow the value
  if (v === "+Inf" || v === "Inf") return Infinity;
  if (v === "-Inf") return -Infinity;
  if (v === "NaN") return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return undefined;
  return Number(v);
}

/** Parses `{a="x",b="y\"z"}` starting at text[0] === "{"; returns labels and the rest. */
function parseLabels(text: string): { labels: Record<string, string>; rest: string } | string {
  const labels: Record<string, string> = {};
  let i = 1;
  for (;;) {
    while (text[i] === " " || text[i] === ",") i++;
    if (text[i] === "}") return { labels, rest: text.slice(i + 1) };
    const m = LABEL_NAME.exec(text.slice(i));
    if (!m) return "bad label name";
    i += m[0].length;
    while (text[i] === " ") i++;
    if (text[i] !== "=" || text[i + 1] !== '"') return `label ${m[0]} has no quoted value`;
    i += 2;
    let value = "";
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") {
        const next = text[i + 1];
        value += next === "n" ? "\n" : (next ?? "");
        i += 2;
      } else value += text[i++];
    }
    if (i >= text.length) return "unterminated label value";
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
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith("{")) {
      const r = parseLabels(rest);
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
