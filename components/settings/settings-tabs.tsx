"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// The settings pages: general settings, and the pricing catalogue with its rates, import and
// re-pricing, which has a page of its own (63 rows and their sources made one page 12,000 px tall).

const TABS = [
  { href: "/settings", label: "General" },
  { href: "/settings/pricing", label: "Pricing catalogue" },
] as const;

export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav className="settings-tabs" aria-label="Settings pages">
      <ul>
        {TABS.map((t) => (
          <li key={t.href}>
            <Link
              href={t.href}
              aria-current={pathname === t.href ? "page" : undefined}
              data-testid={`settings-tab-${t.href === "/settings" ? "general" : "pricing"}`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
