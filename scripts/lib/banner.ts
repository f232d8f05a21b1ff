// What `npm start` prints once the app answers: where it runs, which metrics source it reads and
// which store it writes (pure, so a test checks it names both and never prints a secret).
import { isPostgresUrl } from "../../lib/db-url.ts";

export interface BannerInput {
  port: number;
  demo: boolean;
  demoHosts: number;
  exporterPort: number;
  databaseUrl: string;
  prometheusUrl?: string | undefined;
  prometheusAuth?: string | undefined;
  targetsFile?: string | undefined;
  /** the demo mailbox's port (scripts/demo-mailbox.ts), when the demo runs one */
  mailboxPort?: number | undefined;
}

/** A URL with any user name and password replaced, for printing. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = "***";
      u.password = "";
    }
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

export function metricsLine(b: BannerInput): string {
  if (b.prometheusUrl) {
    const auth = b.prometheusAuth ? `, ${b.prometheusAuth}` : "";
    return `metrics: Prometheus HTTP API at ${withoutCredentials(b.prometheusUrl)}${auth} (the app scrapes nothing)`;
  }
  const sources = [
    b.demo
      ? `the demo fleet's ${b.demoHosts} simulated hosts (http://127.0.0.1:${b.exporterPort}/targets.json)`
      : null,
    b.targetsFile ? `the exporters listed in ${b.targetsFile}` : null,
  ].filter(Boolean);
  return sources.length > 0
    ? `metrics: embedded collector scraping ${sources.join(" and ")}`
    : "metrics: embedded collector, nothing to scrape yet: list exporters in GPUFLEET_TARGETS_FILE, or set PROMETHEUS_URL";
}

export function storeLine(databaseUrl: string): string {
  return isPostgresUrl(databaseUrl)
    ? `store: PostgreSQL ${withoutCredentials(databaseUrl)}`
    : `store: SQLite ${databaseUrl}`;
}

export function mailLine(b: BannerInput): string | null {
  return b.mailboxPort === undefined
    ? null
    : `mail: idle alerts go to whoever holds the GPU; the demo catches them on smtp://127.0.0.1:${b.mailboxPort} and saves them under data/demo-mail/`;
}

export function startBanner(b: BannerInput, extra: string): string {
  const mail = mailLine(b);
  return `
gpufleet is running at http://127.0.0.1:${b.port}
  ${metricsLine(b)}
  ${storeLine(b.databaseUrl)}${mail ? `\n  ${mail}` : ""}
  Ctrl-C stops everything this started.
${extra ? `\n${extra}\n` : ""}`;
}
