"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** Whether `href`'s section holds the page at `pathname` (an instance's page is the fleet's). */
function isCurrent(href: string, pathname: string): boolean {
  if (href === "/") return pathname === "/" || pathname.startsWith("/instances");
  return pathname.startsWith(href);
}

/** The main links, the current section marked; which links a role sees is app-nav.tsx's. */
export function NavLinks({ links }: { links: ReadonlyArray<{ href: string; label: string }> }) {
  const pathname = usePathname();
  return (
    <ul>
      {links.map((l) => (
        <li key={l.href}>
          <Link href={l.href} aria-current={isCurrent(l.href, pathname) ? "page" : undefined}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
