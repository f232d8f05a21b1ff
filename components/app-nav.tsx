import { PAGE_PERMISSIONS, roleAllows, type Role } from "@/lib/auth/roles.ts";
import { NavLinks } from "./nav-links.tsx";

const LINKS = [
  { href: "/", label: "Fleet" },
  { href: "/my-gpus", label: "My GPUs" },
  { href: "/costs", label: "Costs" },
  { href: "/compare", label: "Compare" },
  { href: "/alerts", label: "Alerts" },
  { href: "/recommendations", label: "Recommendations" },
  { href: "/settings", label: "Settings" },
  { href: "/admin", label: "Admin" },
] as const;

/**
 * The pages this role may open; the server refuses the others whatever the links say. Chosen on
 * the server, so the role table stays out of the browser's bundle (issue 27: first-load JS).
 */
export function AppNav({ role }: { role: Role }) {
  return (
    <nav className="app-nav" aria-label="Main">
      <NavLinks
        links={LINKS.filter((l) => roleAllows(role, PAGE_PERMISSIONS[l.href])).map(
          ({ href, label }) => ({ href, label }),
        )}
      />
    </nav>
  );
}
