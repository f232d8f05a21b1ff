import "server-only";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import type { Db } from "../db.ts";

// Demo seeding writes ~500k rows. Through Prisma on SQLite that is ~170 µs a row (minutes);
// a prepared statement in one transaction takes seconds. Other databases use createMany, which
// Prisma already turns into multi-row INSERTs there.

type Row = Record<string, unknown>;
type Table = "UsageHour" | "UsageHourHolder" | "GpuMinute" | "HostMinute";

function sqliteValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace("Z", "+00:00");
  if (typeof v === "boolean") return v ? 1 : 0;
  return v ?? null;
}

function sqlitePath(url: string): string | null {
  return url.startsWith("file:") ? url.slice("file:".length) : null;
}

export async function bulkInsert(
  db: Db,
  databaseUrl: string,
  table: Table,
  rows: Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const path = sqlitePath(databaseUrl);
  if (!path) {
    const delegate = {
      UsageHour: db.usageHour,
      UsageHourHolder: db.usageHourHolder,
      GpuMinute: db.gpuMinute,
      HostMinute: db.hostMinute,
    }[table] as unknown as {
      createMany(args: { data: Row[] }): Promise<unknown>;
    };
    for (let i = 0; i < rows.length; i += 5000)
      await delegate.createMany({ data: rows.slice(i, i + 5000) });
    return;
  }
  const now = new Date();
  const first = rows[0] ?? {};
  const columns = ["id", ...Object.keys(first).filter((k) => k !== "id")];
  const stamped = table === "UsageHour" || table === "UsageHourHolder";
  if (stamped && !columns.includes("createdAt")) columns.push("createdAt");
  const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  const conn = new Database(path);
  try {
    conn.pragma("busy_timeout = 10000");
    const stmt = conn.prepare(sql);
    conn.transaction(() => {
      for (const r of rows) {
        stmt.run(
          columns.map((c) =>
            c === "id"
              ? (r.id ?? randomUUID())
              : c === "createdAt"
                ? sqliteValue(r.createdAt ?? now)
                : sqliteValue(r[c]),
          ),
        );
      }
    })();
  } finally {
    conn.close();
  }
}
