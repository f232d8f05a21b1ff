/** A write lost to a unique key (Prisma P2002, on SQLite and PostgreSQL alike). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === "P2002" || String(err.message ?? "").includes("Unique constraint");
}

// Prisma's codes for a store that is there but cannot answer now: unreachable (P1001), timed out
// (P1002, P1008: SQLite's busy timeout surfaces as P1008), connection closed (P1017), pool
// exhausted (P2024). Through the driver adapters the database's own code rides along in `meta`.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const UNAVAILABLE_DRIVER_CODES = new Set([
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  "57P01", // admin_shutdown: pg_terminate_backend, server restart
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the server is starting up
  "08000",
  "08003",
  "08006", // connection exceptions
  "ECONNREFUSED",
  "ECONNRESET",
]);
const UNAVAILABLE_MESSAGES = [
  /database is locked/i,
  /Connection terminated/i,
  /terminating connection due to administrator command/i,
  /Can't reach database server/i,
];

function driverCause(e: unknown): { originalCode?: string; code?: string; kind?: string } {
  const meta = (e as { meta?: { driverAdapterError?: { cause?: unknown } } }).meta;
  const cause = meta?.driverAdapterError?.cause;
  return typeof cause === "object" && cause !== null ? cause : {};
}

/**
 * The store is busy (SQLite locked past its busy timeout) or unreachable (PostgreSQL restarted,
 * connection terminated): the request may succeed if tried again, unlike a bad query.
 */
export function isStoreUnavailable(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err.code === "string" && UNAVAILABLE_CODES.has(err.code)) return true;
  const cause = driverCause(e);
  for (const c of [cause.originalCode, cause.code, err.code]) {
    if (typeof c === "string" && UNAVAILABLE_DRIVER_CODES.has(c)) return true;
  }
  const message = typeof err.message === "string" ? err.message : "";
  return UNAVAILABLE_MESSAGES.some((re) => re.test(message));
}
