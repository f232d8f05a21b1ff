// Next calls register() once per server process: the shipped prices and default alert rules are
// made sure of (a no-op when scripts/first-run.ts already did it), then the collector starts here,
// beside the pages.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { db } = await import("./lib/db.ts");
  const { installDefaults } = await import("./lib/install/defaults.ts");
  await installDefaults(db).catch((e: unknown) =>
    console.error(`[install] shipped prices and default rules: ${(e as Error).message}`),
  );
  const { startServerCollector } = await import("./lib/jobs/server.ts");
  startServerCollector();
}
