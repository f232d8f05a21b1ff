import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

// The two generated Prisma clients (SQLite and PostgreSQL) and whether they match their schemas.
// The app imports both (lib/db.ts picks one by DATABASE_URL), so `next build` needs both, and
// current: a pull that changed the schema without `npm install` leaves them stale. `npm start`
// regenerates both when either is missing or stale, never one alone.

export interface PrismaClientTarget {
  name: "sqlite" | "postgresql";
  schema: string;
  /** the generated file that embeds the schema text it was generated from */
  generated: string;
  /** a DATABASE_URL that makes prisma.config.ts pick this schema (never connected to) */
  databaseUrl: string;
}

export const PRISMA_CLIENTS: readonly PrismaClientTarget[] = [
  {
    name: "sqlite",
    schema: "prisma/schema.prisma",
    generated: "lib/generated/prisma/internal/class.ts",
    databaseUrl: "file:./data/gpufleet.db",
  },
  {
    name: "postgresql",
    schema: "prisma/postgres/schema.prisma",
    generated: "lib/generated/prisma-pg/internal/class.ts",
    databaseUrl: "postgresql://127.0.0.1:1/unused",
  },
];

/** The schema text a generated client embeds (its "inlineSchema"), or null if none is found. */
export function embeddedSchema(generatedSource: string): string | null {
  const m = /"inlineSchema":\s*("(?:[^"\\]|\\.)*")/.exec(generatedSource);
  if (!m?.[1]) return null;
  try {
    const v: unknown = JSON.parse(m[1]);
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

/** Why each client must be regenerated (missing, or built from another schema); empty if none. */
export function staleClients(
  root = ".",
  clients: readonly PrismaClientTarget[] = PRISMA_CLIENTS,
): string[] {
  const reasons: string[] = [];
  for (const c of clients) {
    const generated = join(root, c.generated);
    if (!existsSync(generated)) {
      reasons.push(`the ${c.name} client is missing`);
      continue;
    }
    const embedded = embeddedSchema(readFileSync(generated, "utf8"));
    if (embedded !== readFileSync(join(root, c.schema), "utf8"))
      reasons.push(`the ${c.name} client is older than ${c.schema}`);
  }
  return reasons;
}
