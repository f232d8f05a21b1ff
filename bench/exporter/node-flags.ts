// Its own module, without imports, so that deploy/deploy.test.ts can check the deployment files
// against it without loading the benchmark.
/**
 * V8 flags the exporter runs under everywhere (bench, Dockerfile, systemd unit): a 1 MiB young
 * generation and V8's memory-saving heap sizing (without them V8 lets the heap grow to ~100 MiB
 * before it collects), no optimising or baseline compiler (their code and compilations cost ~5 MiB
 * of the binary's pages and heap at run time, for throughput the exporter does not need: it serves
 * ready buffers), and --expose-gc, with which the exporter collects after a tick's render, at most
 * every 2 s (exporter/heap-trim.ts), so the committed heap stays near what is live. Measured in
 * bench/README.md (exporter).
 */
export const EXPORTER_NODE_FLAGS = [
  "--max-semi-space-size=1",
  "--optimize-for-size",
  "--no-opt",
  "--no-sparkplug",
  "--expose-gc",
];
