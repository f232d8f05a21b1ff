import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

// A production build is reused until a source file is newer than it.
const SOURCES = [
  "app",
  "components",
  "lib",
  "next.config.ts",
  "instrumentation.ts",
  "package-lock.json",
  "prisma/schema.prisma",
];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) {
    if (entry.endsWith(".test.ts") || entry.endsWith(".test.tsx")) continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

export function needsBuild(): boolean {
  const buildId = ".next/BUILD_ID";
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newest(s) > built);
}
