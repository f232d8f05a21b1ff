// `npm run demo:bill -- [--month=YYYY-MM] [--out=PATH]`: writes the demo's FOCUS bill (the one the
// demo seed imports) as a CSV file, for the reconciliation page's upload or the billing CLI. The
// month defaults to last month (UTC).
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { buildFleet } from "../exporter/sim/fleet.ts";
import { addMonths, monthOf } from "../lib/core/months.ts";
import { demoBillCsv } from "../lib/demo/billing.ts";
import { DEMO_SEED } from "../lib/demo/seed.ts";
import { catalogueRows } from "../lib/pricing/catalogue.ts";

const { values } = parseArgs({
  options: {
    month: { type: "string", default: addMonths(monthOf(new Date()), -1) },
    out: { type: "string" },
    hosts: { type: "string", default: "24" },
  },
});
if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(values.month)) {
  console.error(`gpufleet: --month must be YYYY-MM, not ${values.month}`);
  process.exit(1);
}
const out = values.out ?? `demo-focus-${values.month}.csv`;
const fleet = buildFleet({ seed: DEMO_SEED, hosts: Number(values.hosts) });
const file = createWriteStream(out);
for (const line of demoBillCsv(fleet, catalogueRows(), values.month)) {
  if (!file.write(line)) await once(file, "drain");
}
file.end();
await once(file, "close");
console.log(`gpufleet: wrote the demo bill for ${values.month} to ${out}`);
