// `npm run bench:pricing-import [-- --mb=N]`: writes a real-size AmazonEC2 offer file (default
// ≥ 320 MB, the layout and attribute set of a region's index.json: many non-GPU products and their
// on-demand and reserved terms, a few dozen GPU types) into a temp dir, imports it in dry run into
// a fresh SQLite store in a child process, and prints rows kept, time and the child's peak RSS
// (process.resourceUsage().maxRSS), then deletes the file. Nothing is asserted.
import { execFileSync, spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { mb: { type: "string", default: "320" }, child: { type: "string" } },
});

if (values.child) {
  // the measured side: stream-parse the file and compare with an empty store, writing nothing
  const { createDb } = await import("../lib/db.ts");
  const { applyImport } = await import("../lib/pricing/import/apply.ts");
  const { parseImport } = await import("../lib/pricing/import/parse.ts");
  const db = createDb(process.env.DATABASE_URL);
  const started = performance.now();
  const parsed = await parseImport("aws", [
    {
      name: basename(values.child),
      source: createReadStream(values.child, { highWaterMark: 1 << 20 }),
    },
  ]);
  const result = await applyImport(db, parsed, { dryRun: true, provider: "aws" });
  const ms = performance.now() - started;
  await db.$disconnect();
  console.log(
    JSON.stringify({
      kept: result.added,
      skippedNonGpu: result.skippedNonGpu,
      ms: Math.round(ms),
      maxRssKiB: process.resourceUsage().maxRSS,
    }),
  );
  process.exit(0);
}

const GPU_TYPES: [string, number][] = [
  ["g4dn.xlarge", 1],
  ["g4dn.2xlarge", 1],
  ["g4dn.4xlarge", 1],
  ["g4dn.8xlarge", 1],
  ["g4dn.12xlarge", 4],
  ["g4dn.16xlarge", 1],
  ["g4dn.metal", 8],
  ["g5.xlarge", 1],
  ["g5.2xlarge", 1],
  ["g5.4xlarge", 1],
  ["g5.8xlarge", 1],
  ["g5.12xlarge", 4],
  ["g5.16xlarge", 1],
  ["g5.24xlarge", 4],
  ["g5.48xlarge", 8],
  ["g6.xlarge", 1],
  ["g6.2xlarge", 1],
  ["g6.4xlarge", 1],
  ["g6.8xlarge", 1],
  ["g6.12xlarge", 4],
  ["g6.16xlarge", 1],
  ["g6.24xlarge", 4],
  ["g6.48xlarge", 8],
  ["g6e.xlarge", 1],
  ["g6e.2xlarge", 1],
  ["g6e.12xlarge", 4],
  ["g6e.48xlarge", 8],
  ["gr6.4xlarge", 1],
  ["p3.2xlarge", 1],
  ["p3.8xlarge", 4],
  ["p3.16xlarge", 8],
  ["p3dn.24xlarge", 8],
  ["p4d.24xlarge", 8],
  ["p4de.24xlarge", 8],
  ["p5.48xlarge", 8],
  ["p5e.48xlarge", 8],
  ["p5en.48xlarge", 8],
  ["p6-b200.48xlarge", 8],
];
const FAMILIES = ["m5", "m6i", "m7i", "c5", "c6i", "c7i", "r5", "r6i", "r7i", "t3", "i4i", "x2idn"];
const SIZES = [
  "large",
  "xlarge",
  "2xlarge",
  "4xlarge",
  "8xlarge",
  "12xlarge",
  "16xlarge",
  "24xlarge",
];
const VARIANTS: [string, string, string, string][] = [
  // operatingSystem, tenancy, preInstalledSw, capacitystatus
  ["Linux", "Shared", "NA", "Used"],
  ["Windows", "Shared", "NA", "Used"],
  ["RHEL", "Shared", "NA", "Used"],
  ["SUSE", "Shared", "NA", "Used"],
  ["Linux", "Dedicated", "NA", "Used"],
  ["Linux", "Shared", "SQL Std", "Used"],
  ["Windows", "Shared", "SQL Web", "Used"],
  ["Linux", "Shared", "NA", "UnusedCapacityReservation"],
  ["Linux", "Host", "NA", "Used"],
  ["Ubuntu Pro", "Shared", "NA", "Used"],
];

let seq = 0;
const sku = () => (++seq).toString(36).toUpperCase().padStart(16, "0");

function product(
  id: string,
  type: string,
  gpus: number,
  v: [string, string, string, string],
): string {
  const [os, tenancy, sw, capacity] = v;
  return `    "${id}" : {
      "sku" : "${id}",
      "productFamily" : "Compute Instance",
      "attributes" : {
        "servicecode" : "AmazonEC2",
        "location" : "US East (N. Virginia)",
        "locationType" : "AWS Region",
        "instanceType" : "${type}",
        "currentGeneration" : "Yes",
        "instanceFamily" : "${gpus > 0 ? "GPU instance" : "General purpose"}",
        "vcpu" : "16",
        "physicalProcessor" : "Intel Xeon Platinum 8259CL",
        "clockSpeed" : "2.5 GHz",
        "memory" : "64 GiB",
        "storage" : "EBS only",
        "networkPerformance" : "Up to 25 Gigabit",
        "processorArchitecture" : "64-bit",
        "tenancy" : "${tenancy}",
        "operatingSystem" : "${os}",
        "licenseModel" : "No License required",
        "usagetype" : "BoxUsage:${type}",
        "operation" : "RunInstances",
        "availabilityzone" : "NA",
        "capacitystatus" : "${capacity}",
        "classicnetworkingsupport" : "false",
        "dedicatedEbsThroughput" : "Up to 4750 Mbps",
        "ecu" : "NA",
        "enhancedNetworkingSupported" : "Yes",${gpus > 0 ? `\n        "gpu" : "${gpus}",` : ""}
        "gpuMemory" : "NA",
        "intelAvx2Available" : "Yes",
        "intelAvxAvailable" : "Yes",
        "intelTurboAvailable" : "Yes",
        "marketoption" : "OnDemand",
        "normalizationSizeFactor" : "32",
        "preInstalledSw" : "${sw}",
        "processorFeatures" : "Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo",
        "regionCode" : "us-east-1",
        "servicename" : "Amazon Elastic Compute Cloud",
        "vpcnetworkingsupport" : "true"
      }
    }`;
}

function term(id: string, code: string, price: string, attrs: string, desc: string): string {
  return `      "${id}.${code}" : {
        "offerTermCode" : "${code}",
        "sku" : "${id}",
        "effectiveDate" : "2026-09-01T00:00:00Z",
        "priceDimensions" : {
          "${id}.${code}.6YS6EN2CT7" : {
            "rateCode" : "${id}.${code}.6YS6EN2CT7",
            "description" : "${desc}",
            "beginRange" : "0",
            "endRange" : "Inf",
            "unit" : "Hrs",
            "pricePerUnit" : {
              "USD" : "${price}"
            },
            "appliesTo" : [ ]
          }
        },
        "termAttributes" : { ${attrs} }
      }`;
}

const RESERVED = `"LeaseContractLength" : "1yr", "OfferingClass" : "standard", "PurchaseOption" : "No Upfront"`;
const RESERVED_3Y = `"LeaseContractLength" : "3yr", "OfferingClass" : "convertible", "PurchaseOption" : "No Upfront"`;

async function generate(path: string, targetBytes: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (s: string) => {
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, "drain");
  };
  const items: { id: string; price: string; type: string }[] = [];
  await write(
    `{\n  "formatVersion" : "v1.0",\n  "disclaimer" : "generated by bench/pricing-import.ts in the AmazonEC2 offer file layout",\n  "offerCode" : "AmazonEC2",\n  "version" : "20260910195514",\n  "publicationDate" : "2026-09-10T19:55:14Z",\n  "products" : {\n`,
  );
  let first = true;
  const add = async (
    type: string,
    gpus: number,
    v: [string, string, string, string],
    price: string,
  ) => {
    const id = sku();
    items.push({ id, price, type });
    await write(`${first ? "" : ",\n"}${product(id, type, gpus, v)}`);
    first = false;
  };
  for (const [type, gpus] of GPU_TYPES) {
    for (const v of VARIANTS) await add(type, gpus, v, (gpus * 1.5 + v[0].length / 10).toFixed(4));
  }
  // terms take about 0.55 of the products' bytes (on-demand + two reserved terms each)
  for (let n = 0; bytes * 2.45 < targetBytes; n++) {
    const type = `${FAMILIES[n % FAMILIES.length]}.${SIZES[Math.floor(n / FAMILIES.length) % SIZES.length]}`;
    await add(
      type,
      0,
      VARIANTS[n % VARIANTS.length] ?? ["Linux", "Shared", "NA", "Used"],
      (0.01 + (n % 997) / 100).toFixed(4),
    );
  }
  await write(`\n  },\n  "terms" : {\n    "OnDemand" : {\n`);
  for (const [i, it] of items.entries()) {
    const desc = `$${it.price} per On Demand Linux ${it.type} Instance Hour`;
    await write(
      `${i ? ",\n" : ""}    "${it.id}" : {\n${term(it.id, "JRTCKXETXF", `${it.price}000000`, "", desc)}\n    }`,
    );
  }
  await write(`\n    },\n    "Reserved" : {\n`);
  for (const [i, it] of items.entries()) {
    const r = (Number(it.price) * 0.6).toFixed(4);
    await write(
      `${i ? ",\n" : ""}    "${it.id}" : {\n${term(it.id, "4NA7Y494T4", `${r}000000`, RESERVED, "Linux/UNIX (Amazon VPC), reserved instance applied")},\n${term(it.id, "7NE97W5U4E", `${(Number(r) * 0.7).toFixed(4)}000000`, RESERVED_3Y, "convertible 3yr")}\n    }`,
    );
  }
  await write(`\n    }\n  },\n  "attributesList" : { }\n}\n`);
  out.end();
  await once(out, "finish");
  return items.length;
}

const dir = mkdtempSync(join(tmpdir(), "gpufleet-bench-pricing-"));
try {
  const file = join(dir, "us-east-1-index.json");
  const genStart = performance.now();
  const products = await generate(file, Number(values.mb) * 1_000_000);
  const size = statSync(file).size;
  console.log(
    `generated ${(size / 1e6).toFixed(0)} MB, ${products} products (${GPU_TYPES.length * VARIANTS.length} of GPU types) in ${((performance.now() - genStart) / 1000).toFixed(1)} s`,
  );
  const db = join(dir, "bench.db");
  execFileSync(process.execPath, ["--import", "tsx", "lib/testing/template-db.ts", "sqlite", db]);
  const child = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "bench/pricing-import.ts", `--child=${file}`],
    { env: { ...process.env, DATABASE_URL: `file:${db}` }, encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(`import failed: ${child.stderr}`);
  const m = JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}") as {
    kept: number;
    skippedNonGpu: number;
    ms: number;
    maxRssKiB: number;
  };
  console.log(
    `| ${(size / 1e6).toFixed(0)} MB | ${products} | ${m.kept} | ${m.skippedNonGpu} | ${(m.ms / 1000).toFixed(1)} s | ${(size / 1e6 / (m.ms / 1000)).toFixed(0)} MB/s | ${(m.maxRssKiB / 1024).toFixed(0)} MiB |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
