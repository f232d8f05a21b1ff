import { stringify } from "yaml";

// The Prometheus scrape config for a gpufleet exporter fleet. `instance` is rewritten to address +
// path, because the simulated fleet serves many hosts from one address and the app joins a host's
// GPU series to its gpu_host_info on `instance`.

export interface ScrapeConfigOptions {
  /** file_sd JSON files (the same format GPUFLEET_TARGETS_FILE uses) */
  targetFiles?: string[];
  /** or an http_sd URL, e.g. the simulator's /targets.json */
  httpSdUrl?: string;
  scrapeInterval?: string;
  scrapeTimeout?: string;
  ruleFiles?: string[];
}

export function scrapeConfig(opts: ScrapeConfigOptions): Record<string, unknown> {
  const interval = opts.scrapeInterval ?? "15s";
  const job: Record<string, unknown> = {
    job_name: "gpufleet",
    scrape_interval: interval,
    scrape_timeout: opts.scrapeTimeout ?? interval,
    relabel_configs: [
      {
        source_labels: ["__address__", "__metrics_path__"],
        separator: "",
        target_label: "instance",
      },
    ],
  };
  if (opts.targetFiles?.length)
    job.file_sd_configs = [{ files: opts.targetFiles, refresh_interval: "30s" }];
  if (opts.httpSdUrl) job.http_sd_configs = [{ url: opts.httpSdUrl, refresh_interval: "30s" }];
  return {
    global: { scrape_interval: interval, evaluation_interval: interval },
    ...(opts.ruleFiles?.length ? { rule_files: opts.ruleFiles } : {}),
    scrape_configs: [job],
  };
}

export function scrapeConfigYaml(opts: ScrapeConfigOptions): string {
  return stringify(scrapeConfig(opts));
}

export interface WebConfigOptions {
  user: string;
  /** bcrypt hash of the password, as Prometheus's web config requires */
  bcryptHash: string;
  certFile?: string;
  keyFile?: string;
}

/** A Prometheus `--web.config.file`: basic auth for every API call, over TLS when given a cert. */
export function webConfigYaml(opts: WebConfigOptions): string {
  return stringify({
    ...(opts.certFile && opts.keyFile
      ? { tls_server_config: { cert_file: opts.certFile, key_file: opts.keyFile } }
      : {}),
    basic_auth_users: { [opts.user]: opts.bcryptHash },
  });
}
