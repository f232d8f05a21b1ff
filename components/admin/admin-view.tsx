"use client";

import { AppSettingsPanel } from "./app-settings-panel.tsx";
import { PeoplePanel } from "./people-panel.tsx";
import { AuditPanel } from "./audit-panel.tsx";
import { TokensPanel } from "./tokens-panel.tsx";
import { UsersPanel } from "./users-panel.tsx";

/** Admins only (the page checks on the server; every route checks again). */
export function AdminView({ currentUserId }: { currentUserId: string }) {
  return (
    <>
      <div className="page-title">
        <h1>Admin</h1>
        <p>Users and roles, API tokens, run-time settings and the audit log.</p>
      </div>
      <div className="settings-sections">
        <UsersPanel currentUserId={currentUserId} />
        <TokensPanel />
        <AppSettingsPanel />
        <PeoplePanel />
        <AuditPanel />
      </div>
    </>
  );
}
