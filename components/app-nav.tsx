"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { PAGE_PERMISSIONS, roleAllows, type Role } from "@/lib/auth/roles.ts";

const LINKS = [
  { href: "/", label: "Fleet", match: (p: string) => p === "/" || p.startsWith("/instances") },
  { href: "/my-gpus", label: "My GPUs", match: (p: string) => p.startsWith("/my-gpus") },
  { href: "/costs", label: "Costs", match: (p: string) => p.startsWith("/costs") },
  { href: "/compare", label: "Compare", match: (p: string) => p.startsWith("/compare") },
  { href: "/alerts", label: "Alerts", match: (p: string) => p.startsWith("/alerts") },
  {
    href: "/recommendations",
    label: "Recommendations",
    match: (p: string) => p.startsWith("/recommendations"),
  },
  { href: "/settings", label: "Settings", match: (p: string) => p.startsWith("/settings") },
  { href: "/admin", label: "Admin", match: (p: string) => p.startsWith("/admin") },
] as const;

/** The pages this role may open; the server refuses the others whatever the links say. */
export function AppNav({ role }: { role: Role }) {
  const pathname = usePathname();
  return (
    <nav className="app-nav" aria-label="Main">
      <ul>
        {LINKS.filter((l) => roleAllows(role, PAGE_PERMISSIONS[l.href])).map((l) => (
          <li key={l.href}>
            <Link href={l.href} aria-current={l.match(pathname) ? "page" : undefined}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
