/** The header proxy.ts sets to the requested path, so a page that needs a sign-in can come back. */
export const REQUEST_PATH_HEADER = "x-gpufleet-path";

/** A same-site path to come back to after signing in (never another site). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next)) return "/";
  return next;
}
