// Until sign-in exists, the person acting (acknowledging, resolving, dismissing) is whoever the
// x-gpufleet-user header names, else "anonymous". The auth issue replaces this one function.

export const ACTING_USER_HEADER = "x-gpufleet-user";

function printable(s: string): string {
  return [...s].filter((ch) => ch >= " " && ch !== "\u007f").join("");
}

export function actingUser(req: Request): string {
  const clean = printable(req.headers.get(ACTING_USER_HEADER) ?? "")
    .trim()
    .slice(0, 100);
  return clean === "" ? "anonymous" : clean;
}
