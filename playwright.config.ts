import { defineConfig } from "@playwright/test";

// e2e runs against the real demo (simulated fleet + collector + Next), on its own port and database.
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  outputDir: "test-results/e2e",
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/ },
    {
      name: "e2e",
      dependencies: ["setup"],
      testIgnore: /auth\.setup\.ts$/,
      // signed in as the demo admin unless a spec picks another role
      use: { storageState: "test-results/.auth/admin.json" },
    },
  ],
  use: {
    baseURL,
    // the app refuses cookie-authenticated changes without its own Origin, as browsers send it
    extraHTTPHeaders: { origin: baseURL },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    screenshot: "only-on-failure",
    timezoneId: "Europe/Berlin",
  },
  webServer: {
    command: "npm run start",
    url: `${baseURL}/api/health`,
    // the demo seeds 60 days of 24 hosts first (about a minute on a quiet machine, minutes on a
    // loaded one); `npm test` builds the app in a stage of its own before this
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(port),
      DATABASE_URL: "file:./data/e2e.db",
      GPUFLEET_FRESH_STORE: "1",
      GPUFLEET_COLLECT_INTERVAL_S: "5",
      GPUFLEET_EXPORTER_PORT: String(port + 1),
    },
  },
});
