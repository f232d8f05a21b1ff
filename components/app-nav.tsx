"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Fleet", match: (p: string) => p === "/" || p.startsWith("/instances") },
  { href: "/costs", label: "Costs", match: (p: string) => p.startsWith("/costs") },
  { href: "/alerts", label: "Alerts", match: (p: string) => p.startsWith("/alerts") },
  {
    href: "/recommendations",
    label: "Recommendations",
    match: (p: string) => p.startsWith("/recommendations"),
  },
  { href: "/settings", label: "Settings", match: (p: string) => p.startsWith("/settings") },
] as const;

export function AppNav() {
  const pathname = usePathname();
  return (
    <nav className="app-nav" aria-label="Main">
      <ul>
        {LINKS.map((l) => (
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
