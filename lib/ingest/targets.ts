import { readFile } from "node:fs/promises";
import { z } from "zod";

// Scrape targets in Prometheus file_sd JSON, the format ops already keep for Prometheus.

export interface ScrapeTarget {
  /** full URL of the exporter's metrics endpoint; also the host's identity in embedded mode */
  url: string;
  labels: Record<string, string>;
  /** the host's name before its first scrape says it (label __meta_gpufleet_hostname) */
  hostnameHint?: string;
}

/** A hidden label (dropped by Prometheus after relabelling, so series gain no extra label) that
 * names the host a target serves; the simulator's /targets.json sets it. */
export const HOSTNAME_HINT_LABEL = "__meta_gpufleet_hostname";

const fileSdSchema = z.array(
  z.object({
    targets: z.array(z.string().min(1)),
    labels: z.record(z.string(), z.string()).optional(),
  }),
);

export function targetsFromFileSd(json: unknown): ScrapeTarget[] {
  const groups = fileSdSchema.parse(json);
  const out: ScrapeTarget[] = [];
  for (const group of groups) {
    const labels = group.labels ?? {};
    const scheme = labels.__scheme__ ?? "http";
    const path = labels.__metrics_path__ ?? "/metrics";
    const visible = Object.fromEntries(Object.entries(labels).filter(([k]) => !k.startsWith("__")));
    const hint = labels[HOSTNAME_HINT_LABEL];
    for (const t of group.targets) {
      out.push({
        url: new URL(path, `${scheme}://${t}`).toString(),
        labels: visible,
        ...(hint ? { hostnameHint: hint } : {}),
      });
    }
  }
  return out;
}

export async function readTargetsFile(path: string): Promise<ScrapeTarget[]> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`targets file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  try {
    return targetsFromFileSd(json);
  } catch (e) {
    throw new Error(`targets file ${path} is not Prometheus file_sd JSON: ${(e as Error).message}`);
  }
}
