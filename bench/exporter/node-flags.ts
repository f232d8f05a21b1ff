// Its own module, without imports, so that deploy/deploy.test.ts can check the deployment files
// against it without loading the benchmark.
/**
 * V8 flags the exporter runs under everywhere (bench, Dockerfile, systemd unit): a 1 MiB young
 * generation and V8's memory-saving heap sizing hold a 64-GPU exporter rendering every second
 * near 67 MiB resident (44 MiB of it node's own binary); without them V8 lets the heap grow to
 * ~100 MiB before it collects (bench/README.md).
 */
export const EXPORTER_NODE_FLAGS = ["--max-semi-space-size=1", "--optimize-for-size"];
