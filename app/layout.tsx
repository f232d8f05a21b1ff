import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { AppNav } from "@/components/app-nav.tsx";
import { HeaderMenu } from "@/components/header-menu.tsx";
import { TimeZoneNote } from "@/components/time-zone.tsx";
import { UserMenu } from "@/components/user-menu.tsx";
import { currentUser } from "@/lib/auth/page.ts";
import "./globals.css";
import "./styles/controls.css";
import "./styles/fleet-grid.css";
import "./styles/detail.css";

export const metadata: Metadata = {
  title: { default: "gpufleet", template: "%s · gpufleet" },
  description: "GPU fleet health and spend across clouds and bare metal",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // the header shows only what the signed-in role may open; each page checks again itself
  const user = await currentUser();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="app-header">
          <Link className="brand" href="/">
            gpufleet
          </Link>
          {user ? (
            <HeaderMenu>
              <AppNav role={user.role} />
              <span className="header-note">
                <TimeZoneNote />
              </span>
              <UserMenu email={user.email} role={user.role} />
            </HeaderMenu>
          ) : (
            <span className="header-note">
              <TimeZoneNote />
            </span>
          )}
        </header>
        {/* TanStack Query: in the layouts of the route folders that use it (components/providers.tsx) */}
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
