import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// How the app opens a SQLite store. better-sqlite3 runs every statement synchronously on the
// event loop, so a commit's fsyncs stall every request in the process. In SQLite's default
// rollback-journal mode (journal_mode=DELETE, synchronous=FULL) each autocommit write created,
// fsynced twice and deleted a journal file: 13–21 ms of a blocked event loop per write on these
// machines, which capped `npm run bench:load` at 30–36 requests/s (bench/README.md, "Load").
// Write-ahead logging with synchronous=NORMAL appends to the -wal file and fsyncs only at
// checkpoints: a committed transaction survives the app crashing; a power loss may roll back
// the last transactions, never corrupt the file. Readers on other connections (scripts, the
// demo's bulk writer) no longer wait for a writer. WAL needs the -wal and -shm files beside the
// database on a local filesystem (not NFS); the mode is stored in the file, so it stays on.
export const SQLITE_PRAGMAS = [
  // wait for another connection's write lock instead of failing at once with SQLITE_BUSY
  "PRAGMA busy_timeout = 10000",
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
] as const;

type Factory = PrismaBetterSQLite3;
type Adapter = Awaited<ReturnType<Factory["connect"]>>;

/** Runs the pragmas on a new connection, before Prisma sends its first query on it. */
async function prepared(adapter: Promise<Adapter>): Promise<Adapter> {
  const a = await adapter;
  await a.executeScript(SQLITE_PRAGMAS.map((p) => `${p};`).join("\n"));
  return a;
}

/** The driver adapter factory for a SQLite URL, its connections set up as above. */
export function sqliteAdapter(url: string): Factory {
  const inner = new PrismaBetterSQLite3({ url });
  return Object.assign(Object.create(inner) as Factory, {
    connect: () => prepared(inner.connect()),
    connectToShadowDb: () => prepared(inner.connectToShadowDb()),
  });
}
