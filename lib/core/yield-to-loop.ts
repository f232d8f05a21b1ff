/**
 * Lets the event loop run before going on. SQLite (better-sqlite3) answers synchronously, so a
 * loop of awaited queries otherwise holds the loop until it ends, and every request waits.
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
