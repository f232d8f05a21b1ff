// `npm run prometheus:rules`: prints gpufleet's recording rules (deploy/prometheus/gpufleet-rules.yml).
// `npm run prometheus:config -- [--targets-file=F]… [--http-sd=URL] [--rules=F]… [--interval=15s]`:
// prints a Prometheus config that scrapes the exporters the way the app expects (instance =
// address + path) and loads the rules.
// `npm run prometheus:web-config -- --user=NAME --password-file=F [--cert=C --key=K]`: prints a
// Prometheus --web.config.file that requires basic auth (the password bcrypt-hashed, read from a
// file so it stays out of shell history), over TLS when given a certificate and key.
// All print to stdout: redirect them into files with `npm run -s` (without -s npm adds a banner).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import bcrypt from "bcryptjs";
import { rulesYaml } from "../lib/metrics/prometheus/recording-rules.ts";
import { scrapeConfigYaml, webConfigYaml } from "../lib/ingest/scrape-config.ts";

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    "targets-file": { type: "string", multiple: true },
    "http-sd": { type: "string" },
    rules: { type: "string", multiple: true },
    interval: { type: "string" },
    user: { type: "string" },
    "password-file": { type: "string" },
    cert: { type: "string" },
    key: { type: "string" },
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
} else if (command === "web-config") {
  const user = values.user;
  const passwordFile = values["password-file"];
  if (!user || !passwordFile || Boolean(values.cert) !== Boolean(values.key)) {
    console.error(
      "usage: prometheus:web-config -- --user=NAME --password-file=F [--cert=C --key=K]",
    );
    process.exit(2);
  }
  const password = readFileSync(passwordFile, "utf8").replace(/\r?\n$/, "");
  if (password.length < 12) {
    console.error(`${passwordFile}: use a password of at least 12 characters`);
    process.exit(2);
  }
  process.stdout.write(
    webConfigYaml({
      user,
      bcryptHash: bcrypt.hashSync(password, 10),
      ...(values.cert && values.key ? { certFile: values.cert, keyFile: values.key } : {}),
    }),
  );
} else {
  console.error(
    "usage: tsx scripts/prometheus.ts <rules | config [--targets-file=F] [--http-sd=URL] [--rules=F] [--interval=15s] | web-config --user=NAME --password-file=F [--cert=C --key=K]>",
  );
  process.exit(2);
}
