// Next calls register() once per server process: the collector starts here, beside the pages.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerCollector } = await import("./lib/collector/server.ts");
  startServerCollector();
}
