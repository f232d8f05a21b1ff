// Its own module, without imports, so that deploy/deploy.test.ts can check the deployment files
// against it without loading the benchmark.
/**
 * V8 flags the exporter runs under everywhere (bench, Dockerfile, systemd unit): a 1 MiB young
 * generation and V8's memory-saving heap sizing (without them V8 lets the heap grow to ~100 MiB
 * before it collects), and no optimising compiler (TurboFan's own code and its compilations cost
 * ~4 MiB of the binary's pages and ~2 MiB of heap at run time, for throughput the exporter does
 * not need: it serves ready buffers). A 64-GPU exporter rendering every second holds 60-62 MiB
 * resident, ~38.5 MiB of it node's binary (bench/README.md).
 */
export const EXPORTER_NODE_FLAGS = ["--max-semi-space-size=1", "--optimize-for-size", "--no-opt"];
