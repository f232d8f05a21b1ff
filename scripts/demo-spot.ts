// `npm run demo:spot -- [--from=ISO] [--to=ISO] [--out=PATH]`: writes the demo's spot price
// history (the file the demo seed imports: lib/demo/spot-history.ts) as `aws ec2
// describe-spot-price-history --output json` prints it, for the upload on /settings/pricing or `npm
// run spot:import`. Synthetic demo data, and the file says so. The window defaults to the one a
// demo seeded now covers (its ledger's 60 days, from the hour before, to now).
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildFleet } from "../exporter/sim/fleet.ts";
import { HOUR_MS } from "../lib/core/time.ts";
import { DEMO_SEED, demoWindow } from "../lib/demo/seed.ts";
import { DEMO_SPOT_FILE, demoSpotHistoryJson } from "../lib/demo/spot-history.ts";
import { catalogueRows } from "../lib/pricing/catalogue.ts";

const w = demoWindow({ now: new Date() });
const { values } = parseArgs({
  options: {
    from: { type: "string", default: new Date(w.historyStart - HOUR_MS).toISOString() },
    to: { type: "string", default: new Date(w.now).toISOString() },
    out: { type: "string", default: DEMO_SPOT_FILE },
    hosts: { type: "string", default: "24" },
  },
});
const from = Date.parse(values.from);
const to = Date.parse(values.to);
const hosts = Number(values.hosts);
if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) {
  console.error(
    `gpufleet: --from and --to must be times, --from first (${values.from}, ${values.to})`,
  );
  process.exit(1);
}
if (to - from > 400 * 24 * HOUR_MS) {
  console.error("gpufleet: at most 400 days of hourly prices in one file");
  process.exit(1);
}
if (!Number.isInteger(hosts) || hosts < 0) {
  console.error(`gpufleet: --hosts must be a whole number, not ${values.hosts}`);
  process.exit(1);
}
const fleet = buildFleet({ seed: DEMO_SEED, hosts });
writeFileSync(values.out, demoSpotHistoryJson(fleet, catalogueRows(), from, to));
console.log(
  `gpufleet: wrote the demo's spot price history (synthetic) from ${new Date(from).toISOString()} to ${new Date(to).toISOString()} to ${values.out}`,
);
