import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

// The Prisma 6.19.3 CLI reads PostgreSQL's catalogue through the pg adapter, which maps no type
// for `name` (OID 19) and `char` (OID 18), so `migrate deploy` fails with "Column type 'name'
// could not be deserialized". This client reports both as text (OID 25); the app never needs it.

const NAME_OIDS = new Set([18, 19]);
const TEXT_OID = 25;

function namesAsText(result: unknown): unknown {
  const fields = (result as { fields?: Array<{ dataTypeID: number }> } | null)?.fields;
  for (const f of fields ?? []) if (NAME_OIDS.has(f.dataTypeID)) f.dataTypeID = TEXT_OID;
  return result;
}

const baseQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

export class NameAsTextClient extends pg.Client {}
NameAsTextClient.prototype.query = function (this: pg.Client, ...args: unknown[]): unknown {
  // pg.Pool#query calls with a callback; direct callers get a promise
  const last = args.at(-1);
  if (typeof last === "function")
    args[args.length - 1] = (err: unknown, res: unknown) => last(err, namesAsText(res));
  const out = baseQuery.apply(this, args);
  return out instanceof Promise ? out.then(namesAsText) : out;
} as unknown as pg.Client["query"];

/** The driver adapter prisma.config.ts gives the CLI for a PostgreSQL URL. */
export function cliPgAdapter(connectionString: string): PrismaPg {
  return new PrismaPg({
    connectionString,
    Client: NameAsTextClient,
    allowExitOnIdle: true,
    idleTimeoutMillis: 100,
  });
}
