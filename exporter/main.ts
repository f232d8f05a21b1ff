// CLI entry: `npm run exporter -- [flags]` (tsx) or `node dist/exporter/main.js [flags]`.
// Bad flags exit 2; SIGINT/SIGTERM close the server and SIGKILL any nvidia-smi child.

import { ConfigError } from "./config.ts";
import { parseCli } from "./flags.ts";
import { killAllChildren } from "./nvidia/child.ts";
import { startExporter, type RunningExporter } from "./server.ts";
import { VERSION } from "./version.ts";

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  if (cli.kind === "help") {
    process.stdout.write(cli.text);
    return;
  }
  if (cli.kind === "version") {
    process.stdout.write(`gpu-exporter ${VERSION} (node ${process.version})\n`);
    return;
  }
  if (cli.kind === "error") {
    process.stderr.write(`gpu-exporter: error: ${cli.message}\nTry --help.\n`);
    process.exitCode = 2;
    return;
  }
  process.on("exit", killAllChildren);
  let exporter: RunningExporter;
  try {
    exporter = await startExporter(cli.config);
  } catch (err) {
    const config = err instanceof ConfigError;
    process.stderr.write(`gpu-exporter: error: ${err instanceof Error ? err.message : err}\n`);
    process.exit(config ? 2 : 1);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // second signal: do not wait (exit handler kills children)
    stopping = true;
    process.stderr.write(`gpu-exporter: ${signal}, shutting down\n`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    exporter.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
