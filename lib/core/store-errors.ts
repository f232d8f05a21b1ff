/** A write lost to a unique key (Prisma P2002, on SQLite and PostgreSQL alike). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === "P2002" || String(err.message ?? "").includes("Unique constraint");
}
