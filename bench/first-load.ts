// `npm run bench:first-load`: first-load JS (gzip) of the app's pages from the build output
// (.next), building first when the sources changed. Asserts nothing.
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./lib/app.ts";
import { firstLoadJs } from "./lib/first-load.ts";
import { f1, table, type Section } from "./lib/stats.ts";

const PAGES: Array<[string, string]> = [
  ["/ (fleet)", "/page"],
  ["/costs", "/costs/page"],
  ["/alerts", "/alerts/page"],
  ["/recommendations", "/recommendations/page"],
];

export function runFirstLoadBench(): Section {
  const builtS = ensureBuilt();
  const rows: Array<Array<string | number>> = [];
  let fleetKiB = Number.NaN;
  let reason = "";
  for (const [label, page] of PAGES) {
    try {
      const r = firstLoadJs(page);
      const kib = r.gzipBytes / 1024;
      if (page === "/page") {
        fleetKiB = kib;
        reason =
          `Next's runtime and React (every page loads them) are ${f1(r.rootGzipBytes / 1000)} KB; ` +
          `the page's tree (layouts, page, boundaries) ${f1((r.gzipBytes - r.rootGzipBytes) / 1000)} KB`;
      }
      rows.push([label, r.files.length, f1(r.rawBytes / 1024), f1(kib)]);
    } catch (e) {
      rows.push([label, "–", "–", (e as Error).message]);
    }
  }
  return {
    title:
      "First-load JS (from .next: root main files + the entry chunks of the page's tree, gzip -6)",
    lines: [
      ...table(["page", "files", "raw KiB", "gzip KiB"], rows),
      ...(builtS > 0 ? ["", `Built first (${f1(builtS)} s).`] : []),
    ],
    goals: [
      {
        goal: "fleet page first-load JS < 150 KB gzip",
        figure: `${f1(fleetKiB * 1.024)} KB (${f1(fleetKiB)} KiB)`,
        met: fleetKiB * 1.024 < 150,
        reason,
      },
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = runFirstLoadBench();
  console.log([`## ${s.title}`, "", ...s.lines, ""].join("\n"));
}
