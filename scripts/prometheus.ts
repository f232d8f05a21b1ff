// `npm run prometheus:rules`: prints gpufleet's recording rules (deploy/prometheus/gpufleet-rules.yml).
// `npm run prometheus:config -- [--targets-file=F]… [--http-sd=URL] [--rules=F]… [--interval=15s]`:
// prints a Prometheus config that scrapes the exporters the way the app expects (instance =
// address + path) and loads the rules. Both print to stdout, so redirect them into files.
import { parseArgs } from "node:util";
import { rulesYaml } from "../lib/metrics/recording-rules.ts";
import { scrapeConfigYaml } from "../lib/metrics/scrape-config.ts";

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    "targets-file": { type: "string", multiple: true },
    "http-sd": { type: "string" },
    rules: { type: "string", multiple: true },
    interval: { type: "string" },
  },
});

if (command === "rules") {
  process.stdout.write(rulesYaml());
} else if (command === "config") {
  const targetFiles = values["targets-file"] ?? [];
  const httpSdUrl = values["http-sd"];
  process.stdout.write(
    scrapeConfigYaml({
      targetFiles:
        targetFiles.length || httpSdUrl ? targetFiles : ["/etc/prometheus/gpufleet-targets.json"],
      ...(httpSdUrl ? { httpSdUrl } : {}),
      ruleFiles: values.rules ?? ["/etc/prometheus/gpufleet-rules.yml"],
      ...(values.interval ? { scrapeInterval: values.interval } : {}),
    }),
  );
} else {
  console.error(
    "usage: tsx scripts/prometheus.ts <rules | config [--targets-file=F] [--http-sd=URL] [--rules=F] [--interval=15s]>",
  );
  process.exit(2);
}
