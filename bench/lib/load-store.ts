// The stores `npm run bench:load` runs the app on: a SQLite file in the bench's temp folder, and a
// throwaway PostgreSQL cluster (as `npm test` starts one, scripts/lib/test-setup-pg.ts) with its
// durability settings left on, as a production server has them.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pgBinDir, type Probe } from "../../scripts/lib/test-setup.ts";
import { ThrowawayPg } from "../../scripts/lib/test-setup-pg.ts";

export type StoreKind = "sqlite" | "postgres";

export interface Store {
  kind: StoreKind;
  url: string;
  /** what the report says about it (version, settings) */
  label: string;
  stop(): void;
}

const probe: Probe = {
  exists: (p) => existsSync(p),
  list: (d) => (existsSync(d) ? readdirSync(d) : []),
};

/** Why PostgreSQL cannot run here, or null when it can. */
export function postgresMissing(): string | null {
  return pgBinDir(process.env, probe)
    ? null
    : "PostgreSQL's server binaries were not found (apt-get install postgresql)";
}

export async function startStore(kind: StoreKind, dir: string): Promise<Store> {
  if (kind === "sqlite") {
    const url = `file:${join(dir, `load-${Date.now()}.db`)}`;
    return {
      kind,
      url,
      label: "SQLite (a file in the temp folder; the app holds one connection)",
      stop: () => {},
    };
  }
  const bin = pgBinDir(process.env, probe);
  if (!bin) throw new Error(postgresMissing() ?? "no PostgreSQL");
  const pg = new ThrowawayPg(bin.dir, { durable: true });
  try {
    const url = await pg.start();
    const version = execFileSync(join(bin.dir, "postgres"), ["--version"], { encoding: "utf8" })
      .trim()
      .replace(/^postgres \(PostgreSQL\) /, "");
    return {
      kind,
      url,
      label: `PostgreSQL ${version} (throwaway cluster, fsync on, pool of 10)`,
      stop: () => pg.stop(),
    };
  } catch (e) {
    pg.stop();
    throw e;
  }
}
