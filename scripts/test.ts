// `npm test`: lint, format, types, unit + integration tests, then the browser suite against the
// demo. Stops at the first failing stage and ends with one summary line of all tests run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const only = process.argv[2]; // e.g. `npm test -- unit` to skip the browser suite

function run(label: string, cmd: string, args: string[], env: Record<string, string> = {}): void {
  console.log(`\n=== ${label}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  console.log(
    `=== ${label}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (r.status !== 0) {
    summary();
    process.exit(r.status ?? 1);
  }
}

const counts = { passed: 0, failed: 0, skipped: 0 };
function readCounts(file: string, kind: "vitest" | "playwright"): void {
  if (!existsSync(file)) return;
  const j = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  if (kind === "vitest") {
    counts.passed += Number(j.numPassedTests ?? 0);
    counts.failed += Number(j.numFailedTests ?? 0);
    counts.skipped += Number(j.numPendingTests ?? 0) + Number(j.numTodoTests ?? 0);
  } else {
    const s = (j.stats ?? {}) as Record<string, number>;
    counts.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    counts.failed += s.unexpected ?? 0;
    counts.skipped += s.skipped ?? 0;
  }
}
function summary(): void {
  readCounts("test-results/vitest.json", "vitest");
  readCounts("test-results/playwright.json", "playwright");
  console.log(
    `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
}

rmSync("test-results", { recursive: true, force: true });
if (!existsSync("lib/generated/prisma/client.ts"))
  run("prisma generate", "npx", ["prisma", "generate"]);
run("lint", "npx", ["eslint", ".", "--max-warnings=0"]);
run("format", "npx", ["prettier", "--check", "."]);
run("typecheck", "npx", ["tsc", "--noEmit"]);
run("unit + integration", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/vitest.json",
]);
if (only !== "unit") {
  if (!existsSync(chromium)) {
    console.error(
      `\nNo browser at ${chromium}. Install Debian's Chromium with \`apt-get install -y chromium\` ` +
        "(or set CHROMIUM_PATH), then run npm test again.",
    );
    summary();
    process.exit(1);
  }
  run("browser (Playwright)", "npx", ["playwright", "test"]);
}
summary();
