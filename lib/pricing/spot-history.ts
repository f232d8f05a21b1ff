import { z } from "zod";
import { InvalidInputError } from "../core/errors.ts";
import { divRoundHalfUp } from "../core/money.ts";
import { decimalToMicros } from "./import/price.ts";

// AWS spot price history as `aws ec2 describe-spot-price-history` prints it (JSON output):
// {"SpotPriceHistory": [{AvailabilityZone, InstanceType, ProductDescription, SpotPrice, Timestamp}],
//  "NextToken": …} (https://docs.aws.amazon.com/cli/latest/reference/ec2/describe-spot-price-history.html).
// Each record is a price change: the price applies in its zone from Timestamp until the zone's next
// record. Only "Linux/UNIX" rows are kept (the ledger prices Linux hosts); Windows, SUSE, Red Hat
// and the rest are counted and skipped, and so are zones that are not a region's availability zone
// (Local Zones, e.g. us-east-1-bos-1a, whose region cannot be read from the name).
//
// The lookup for a spot hour (lookup.ts) takes, in this order:
//   1. the host's zone: the newest record at or before the hour's start;
//   2. the host's region: the mean of its zones' prices in force then (each zone's newest record),
//      rounded half up to the micro-dollar: a host whose zone is unknown costs what the region's
//      zones cost on average, not the cheapest zone;
//   3. the catalogue's spot row.
// A record is in force until the zone's next record; the newest record of a zone counts for at most
// SPOT_MAX_AGE_MS (7 days) after its timestamp, so an import that stopped long ago does not price
// today's hours (the catalogue row does then).

export const SPOT_MAX_AGE_MS = 7 * 24 * 3_600_000;
export const SPOT_PRODUCT = "Linux/UNIX";
export const SPOT_SOURCE = "AWS spot price history";

/** One imported price change. */
export interface SpotPoint {
  instanceType: string;
  zone: string;
  region: string;
  at: Date;
  usdPerHourMicros: bigint;
}

export interface SpotParseResult {
  points: SpotPoint[];
  /** records read, and those skipped (other products, Local Zones) or repeated (same zone, type, time and price) */
  read: number;
  skippedProducts: Record<string, number>;
  skippedZones: number;
  duplicates: number;
}

/** A refused file (an API answers 400 invalid_input, each problem an issue). */
export class SpotHistoryError extends InvalidInputError {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `${file}: ${problems.join("; ")}`,
      problems.map((p) => {
        const at = p.indexOf(": ");
        return at > 0 && p.startsWith("SpotPriceHistory[")
          ? { path: p.slice(0, at), message: p.slice(at + 2) }
          : { path: "", message: p };
      }),
    );
    this.name = "SpotHistoryError";
  }
}

/** The upload route's query: preview (the default) writes nothing; apply stores the file's records. */
export const spotImportQuerySchema = z.strictObject({
  mode: z.enum(["preview", "apply"], { error: "preview or apply" }).default("preview"),
  file: z
    .string()
    .trim()
    .max(120, { error: "at most 120 characters" })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._ ()-]*$/, { error: "a plain file name" })
    .default("upload"),
});
/** an upload is parsed on the request thread: a few pages of the CLI's output, not a bulk dump */
export const SPOT_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;

const ZONE = /^([a-z]{2}(?:-[a-z]+)+-\d+)([a-z])$/;

const record = z.object({
  AvailabilityZone: z.string().min(1),
  InstanceType: z.string().min(1),
  ProductDescription: z.string().min(1),
  SpotPrice: z.string().regex(/^\d+(\.\d+)?$/, "a decimal price such as 9.832100"),
  Timestamp: z.iso.datetime({ offset: true }),
});
const document = z.object({ SpotPriceHistory: z.array(z.unknown()) });

/** The region of an availability zone ("us-east-1a" -> "us-east-1"); null for a Local Zone. */
export function zoneRegion(zone: string): string | null {
  return ZONE.exec(zone.trim().toLowerCase())?.[1] ?? null;
}

/**
 * Parses one file of the CLI's output. Any bad record refuses the whole file, each named by its
 * index (`SpotPriceHistory[3].SpotPrice: …`), so nothing is half-imported.
 */
export function parseSpotHistory(text: string, file: string): SpotParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SpotHistoryError(file, [`not JSON (${(e as Error).message})`]);
  }
  const doc = document.safeParse(json);
  if (!doc.success) {
    throw new SpotHistoryError(file, [
      'not describe-spot-price-history output: expected {"SpotPriceHistory": [ … ]}',
    ]);
  }
  const problems: string[] = [];
  const out: SpotParseResult = {
    points: [],
    read: 0,
    skippedProducts: {},
    skippedZones: 0,
    duplicates: 0,
  };
  const seen = new Map<string, { index: number; micros: bigint }>();
  doc.data.SpotPriceHistory.forEach((raw, index) => {
    out.read++;
    const r = record.safeParse(raw);
    if (!r.success) {
      for (const issue of r.error.issues) {
        const path = issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
        problems.push(`SpotPriceHistory[${index}]${path}: ${issue.message}`);
      }
      return;
    }
    const rec = r.data;
    if (rec.ProductDescription !== SPOT_PRODUCT) {
      const p = rec.ProductDescription;
      out.skippedProducts[p] = (out.skippedProducts[p] ?? 0) + 1;
      return;
    }
    const zone = rec.AvailabilityZone.trim().toLowerCase();
    const region = zoneRegion(zone);
    if (!region) {
      out.skippedZones++;
      return;
    }
    const micros = decimalToMicros(rec.SpotPrice)?.micros;
    if (micros === undefined) {
      problems.push(`SpotPriceHistory[${index}].SpotPrice: not a price: ${rec.SpotPrice}`);
      return;
    }
    const at = new Date(rec.Timestamp);
    const instanceType = rec.InstanceType.trim().toLowerCase();
    const key = `${instanceType}|${zone}|${at.getTime()}`;
    const before = seen.get(key);
    if (before) {
      if (before.micros === micros) out.duplicates++;
      else {
        problems.push(
          `SpotPriceHistory[${index}]: ${instanceType} in ${zone} at ${at.toISOString()} has two prices ` +
            `(also SpotPriceHistory[${before.index}])`,
        );
      }
      return;
    }
    seen.set(key, { index, micros });
    out.points.push({ instanceType, zone, region, at, usdPerHourMicros: micros });
  });
  if (problems.length > 0) throw new SpotHistoryError(file, problems);
  return out;
}

/** What priced a spot hour from the history. */
export interface SpotQuote {
  usdPerHourMicros: bigint;
  /** the zone, or the region when the region's zones were averaged */
  where: string;
  region: string;
  /** the newest record used */
  at: Date;
  zones: number;
  note: string;
}

/** The zone's record in force at `at`, if any (points of one instance type, sorted by `at`). */
function inForce(points: readonly SpotPoint[], at: number): SpotPoint | null {
  let found: SpotPoint | null = null;
  let next: SpotPoint | null = null;
  for (const p of points) {
    if (p.at.getTime() <= at) found = p;
    else {
      next = p;
      break;
    }
  }
  if (!found) return null;
  if (!next && at - found.at.getTime() > SPOT_MAX_AGE_MS) return null;
  return found;
}

function minute(d: Date): string {
  return `${d.toISOString().slice(0, 16)}Z`;
}

/**
 * The spot price of an hour from the history of one instance type: the host's zone, else the mean
 * of its region's zones; null when neither has a record in force.
 */
export function spotQuote(
  history: readonly SpotPoint[],
  query: { zone?: string | null; region: string; at: Date },
): SpotQuote | null {
  const at = query.at.getTime();
  const zone = query.zone?.trim().toLowerCase() ?? "";
  const region = zone ? (zoneRegion(zone) ?? query.region) : query.region;
  const regionKey = region.trim().toLowerCase();
  const byZone = new Map<string, SpotPoint[]>();
  for (const p of history) {
    if (p.region !== regionKey) continue;
    const list = byZone.get(p.zone) ?? [];
    list.push(p);
    byZone.set(p.zone, list);
  }
  const own = zone ? inForce(byZone.get(zone) ?? [], at) : null;
  if (own) {
    return {
      usdPerHourMicros: own.usdPerHourMicros,
      where: zone,
      region: regionKey,
      at: own.at,
      zones: 1,
      note: `${SPOT_SOURCE}, ${zone}, ${minute(own.at)}`,
    };
  }
  const found = [...byZone.values()].flatMap((list) => inForce(list, at) ?? []);
  if (found.length === 0) return null;
  const sum = found.reduce((s, p) => s + p.usdPerHourMicros, 0n);
  const newest = found.reduce((a, b) => (b.at > a.at ? b : a));
  const why = zone ? `no price in force for ${zone}` : "the host's zone is unknown";
  return {
    usdPerHourMicros: divRoundHalfUp(sum, BigInt(found.length)),
    where: regionKey,
    region: regionKey,
    at: newest.at,
    zones: found.length,
    note:
      `${SPOT_SOURCE}, ${regionKey} mean of ${found.length} zone${found.length === 1 ? "" : "s"} ` +
      `(${why}), ${minute(newest.at)}`,
  };
}
