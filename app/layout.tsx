import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { AppNav } from "@/components/app-nav.tsx";
import { Providers } from "@/components/providers.tsx";
import { TimeZoneNote } from "@/components/time-zone.tsx";
import "./globals.css";
import "./styles/controls.css";
import "./styles/fleet-grid.css";
import "./styles/detail.css";

export const metadata: Metadata = {
  title: { default: "gpufleet", template: "%s · gpufleet" },
  description: "GPU fleet health and spend across clouds and bare metal",
};

export default function RootLayout({ children }: { children: ReactNode }) {
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
          <AppNav />
          <span className="header-note">
            <TimeZoneNote />
          </span>
        </header>
        <Providers>
          <main id="main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
