import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { expect, it } from "vitest";
import { adminQueries, pricingQueries } from "@/lib/queries/admin.ts";
import { AdminView } from "./admin-view.tsx";
import { TokenSecret } from "./token-secret.tsx";
import { PricingPanel } from "../settings/pricing-panel.tsx";

// Server-renders the admin page and the pricing panel from seeded query data: every section
// shows its rows without throwing.
it("renders every admin section and the pricing catalogue", () => {
  const c = new QueryClient();
  const at = "2026-01-01T00:00:00.000Z";
  c.setQueryData(adminQueries.users().queryKey, {
    users: [
      { id: "u1", email: "a@x.io", name: "A", role: "admin", teams: [], createdAt: at },
      { id: "u2", email: "b@x.io", name: "B", role: "viewer", teams: ["ml", "r"], createdAt: at },
    ],
  });
  c.setQueryData(adminQueries.tokens().queryKey, {
    tokens: [
      {
        id: "t1",
        name: "prom",
        prefix: "gft_abcdef",
        scope: "read",
        createdBy: "a@x.io",
        createdAt: at,
        lastUsedAt: null,
        revokedAt: null,
      },
      {
        id: "t2",
        name: "old",
        prefix: "gft_zzzzzz",
        scope: "write",
        createdBy: "a@x.io",
        createdAt: at,
        lastUsedAt: at,
        revokedAt: at,
      },
    ],
  });
  c.setQueryData(adminQueries.settings().queryKey, {
    allowPrivateWebhookTargets: true,
    pseudonymizeHoldersForViewers: false,
    peopleEmailPattern: null,
    tencentChinaSiteAccounts: [],
  });
  c.setQueryData(adminQueries.audit({ action: "", actor: "" }).queryKey, {
    pages: [
      {
        entries: [
          {
            id: "e1",
            at,
            actor: "a@x.io",
            action: "users.create",
            target: "b@x.io",
            detail: { role: "viewer" },
            ip: "1.2.3.4",
          },
        ],
      },
    ],
    pageParams: [undefined],
  });
  c.setQueryData(pricingQueries.catalogue().queryKey, {
    rows: [
      {
        id: "p1",
        provider: "aws",
        instanceType: "p5",
        region: "*",
        pricingModel: "on_demand",
        gpuModel: "H100",
        gpuCount: 8,
        usdPerHourMicros: "98320000",
        usdPerHour: "98.320000",
        currency: "USD",
        effectiveFrom: at,
        source: "list",
        sourceDate: "2025-01",
        note: "approx",
        gpuMemoryGiB: 80,
        origin: "user",
        updatedBy: "fin@x.io",
        updatedAt: at,
        retiredAt: null,
        retiredBy: null,
      },
    ],
  });
  const html = renderToString(
    <QueryClientProvider client={c}>
      <AdminView currentUserId="u1" />
      <PricingPanel canWrite />
      <TokenSecret
        created={{
          id: "t3",
          name: "n",
          prefix: "gft_",
          scope: "read",
          createdBy: "a",
          createdAt: at,
          lastUsedAt: null,
          revokedAt: null,
          token: "gft_SECRET",
        }}
        onDone={() => {}}
      />
    </QueryClientProvider>,
  );
  for (const s of [
    "b@x.io",
    "every team",
    "ml, r",
    "gft_abcdef",
    "revoked",
    "users.create",
    "{&quot;role&quot;:&quot;viewer&quot;}",
    "$98.3200/h",
    // the note opens on demand: the row offers it
    "source, note",
    "added or changed by fin@x.io",
    "Retire",
    "gft_SECRET",
    "checked",
    "any region",
  ])
    expect(html, s).toContain(s);
});
