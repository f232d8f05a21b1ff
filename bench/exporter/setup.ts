// What the exporter benchmark needs before it measures: the compiled exporter (built here, so a
// fresh clone measures its own code) and Debian's node_exporter and wrk, installed with apt-get
// when running as root, as `npm test` installs its tools (scripts/lib/test-setup.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { aptCommands } from "../../scripts/lib/test-setup.ts";
import { WRK } from "./wrk.ts";

export { EXPORTER_NODE_FLAGS } from "./node-flags.ts";

export const NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";
export const EXPORTER_MAIN = "dist/exporter/main.js";

/** `npm run build:exporter`; throws with tsc's output when it fails. Returns seconds taken. */
export function buildExporter(): number {
  const t0 = Date.now();
  const r = spawnSync("npm", ["run", "-s", "build:exporter"], { encoding: "utf8" });
  if (r.status !== 0 || !existsSync(EXPORTER_MAIN)) {
    throw new Error(`npm run build:exporter failed:\n${r.stdout}${r.stderr}`);
  }
  return (Date.now() - t0) / 1000;
}

export interface ToolCheck {
  /** Debian packages still missing after any install attempt */
  missing: string[];
  /** what was done or what the user should do, one line each */
  notes: string[];
}

/** node_exporter and wrk: installs what is missing as root, else says what to install. */
export function ensureTools(): ToolCheck {
  const want = [
    { pkg: "prometheus-node-exporter", path: NODE_EXPORTER },
    { pkg: "wrk", path: WRK },
  ];
  const absent = () => want.filter((w) => !existsSync(w.path)).map((w) => w.pkg);
  const notes: string[] = [];
  if (absent().length > 0 && process.getuid?.() === 0) {
    for (const argv of aptCommands(absent())) {
      const [cmd = "", ...args] = argv;
      notes.push(`ran: ${argv.join(" ")}`);
      const r = spawnSync(cmd, args, {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
      if (r.status !== 0) {
        notes.push(`\`${argv.join(" ")}\` failed (${r.error?.message ?? r.status})`);
        break;
      }
    }
  }
  const missing = absent();
  if (missing.length > 0) {
    notes.push(
      `missing: ${missing.join(", ")}; install with ` +
        `\`sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}\``,
    );
  }
  return { missing, notes };
}
