/** A same-site path to come back to after signing in (never another site). */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\\\s]/.test(next)) return "/";
  return next;
}
