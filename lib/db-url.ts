// Which store a DATABASE_URL names. Shared by lib/db.ts, prisma.config.ts and lib/migrate.ts,
// so all three pick the same schema for the same URL.

/** A postgres:// or postgresql:// URL selects PostgreSQL; anything else is a SQLite file URL. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}
