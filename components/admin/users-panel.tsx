"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { ROLE_LABELS, ROLES, isRole, type Role } from "@/lib/auth/roles.ts";
import { adminQueries, userSchema, type UserDto } from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { ConfirmButton, requestErrors } from "../settings/form-bits.tsx";
import { LocalTime } from "../time-zone.tsx";
import { roleName, teamsText } from "./admin-bits.ts";
import { PasswordResetForm, UserCreateForm, UserEditForm } from "./user-forms.tsx";
import { TableWrap } from "../table-wrap.tsx";

type Open = { id: string; form: "edit" | "password" } | null;

const COLUMNS = 6;

export function UsersPanel({ currentUserId }: { currentUserId: string }) {
  const q = useQuery(adminQueries.users());
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) =>
      sendJson("DELETE", `/api/users/${encodeURIComponent(id)}`, undefined, null),
    onSuccess: () => setDeleting(null),
    onSettled: () => client.invalidateQueries({ queryKey: adminQueries.all() }),
  });
  const failedEmail = q.data?.users.find((u) => u.id === remove.variables)?.email;
  return (
    <section className="panel" aria-labelledby="users-title" data-testid="users-panel">
      <div className="panel-head">
        <h2 id="users-title">Users</h2>
        <span className="muted small">
          roles are cumulative; teams limit what a user sees (empty: every team)
        </span>
        <span className="spacer" />
        <button
          type="button"
          onClick={() => setCreating(true)}
          disabled={creating}
          data-testid="user-new"
        >
          Add user
        </button>
      </div>
      {creating ? <UserCreateForm onDone={() => setCreating(false)} /> : null}
      {q.error ? (
        <p className="field-error" role="alert">
          {q.error.message}
        </p>
      ) : null}
      {q.isPending ? <p className="loading">Loading users…</p> : null}
      {q.data ? (
        <TableWrap label="Users table">
          <table className="data" data-testid="users-table">
            <thead>
              <tr>
                <th>Email</th>
                <th>Name</th>
                <th>Role</th>
                <th>Teams</th>
                <th>Created</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {q.data.users.map((u) => {
                const self = u.id === currentUserId;
                const form = open?.id === u.id ? open.form : null;
                const done = () => setOpen(null);
                return (
                  <Fragment key={u.id}>
                    <UserRow
                      // a new role from the server resets the row's unsaved choice
                      key={u.role}
                      u={u}
                      self={self}
                      open={form}
                      onOpen={(f) => setOpen(form === f ? null : { id: u.id, form: f })}
                      deleting={deleting === u.id}
                      deletePending={remove.isPending && remove.variables === u.id}
                      onDelete={() => {
                        if (deleting === u.id) remove.mutate(u.id);
                        else {
                          remove.reset();
                          setDeleting(u.id);
                        }
                      }}
                      onCancelDelete={() => setDeleting(null)}
                    />
                    {form ? (
                      <tr>
                        <td colSpan={COLUMNS} className="detail-cell">
                          {form === "edit" ? (
                            <UserEditForm user={u} onDone={done} />
                          ) : (
                            <PasswordResetForm user={u} self={self} onDone={done} />
                          )}
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
          {q.data.users.length === 0 ? <p className="muted">No users.</p> : null}
        </TableWrap>
      ) : null}
      {remove.error ? (
        <p className="field-error" role="alert" data-testid="user-delete-error">
          {failedEmail ? `Could not delete ${failedEmail}: ` : "Could not delete: "}
          {remove.error.message}
        </p>
      ) : null}
    </section>
  );
}

function UserRow({
  u,
  self,
  open,
  onOpen,
  deleting,
  deletePending,
  onDelete,
  onCancelDelete,
}: {
  u: UserDto;
  self: boolean;
  open: "edit" | "password" | null;
  onOpen: (form: "edit" | "password") => void;
  deleting: boolean;
  deletePending: boolean;
  onDelete: () => void;
  onCancelDelete: () => void;
}) {
  const client = useQueryClient();
  const [role, setRole] = useState<Role>(u.role);
  const saveRole = useMutation({
    mutationFn: (r: Role) =>
      sendJson("PATCH", `/api/users/${encodeURIComponent(u.id)}`, { role: r }, userSchema),
    onSettled: () => client.invalidateQueries({ queryKey: adminQueries.all() }),
  });
  const roleErrors = saveRole.error ? requestErrors(saveRole.error) : {};
  const roleError = roleErrors.role ?? roleErrors[""];
  const selectId = `user-role-${u.id}`;
  return (
    <tr data-testid="user-row" data-id={u.id} data-email={u.email} data-role={u.role}>
      <td>
        {u.email}{" "}
        {self ? (
          <span className="badge info" title="the signed-in user">
            you
          </span>
        ) : null}
      </td>
      <td>{u.name}</td>
      <td>
        <span className="actions">
          <label htmlFor={selectId} className="sr-only">
            Role of {u.email}
          </label>
          <select
            id={selectId}
            value={role}
            title={ROLE_LABELS[role]}
            onChange={(e) => {
              if (isRole(e.target.value)) setRole(e.target.value);
              saveRole.reset();
            }}
            aria-invalid={roleError ? true : undefined}
            data-testid="user-row-role"
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={role === u.role || saveRole.isPending}
            onClick={() => saveRole.mutate(role)}
            aria-label={`Save role of ${u.email}`}
            data-testid="user-row-role-save"
          >
            {saveRole.isPending ? "Saving…" : "Save"}
          </button>
        </span>
        {roleError ? (
          <div className="field-error small" role="alert" data-testid="user-role-error">
            {roleError}
          </div>
        ) : null}
      </td>
      <td className="wrap">
        {u.teams.length === 0 ? <span className="muted">every team</span> : teamsText(u.teams)}
      </td>
      <td>
        <LocalTime value={u.createdAt} />
      </td>
      <td>
        <span className="actions">
          <button
            type="button"
            onClick={() => onOpen("edit")}
            aria-expanded={open === "edit"}
            aria-label={`Edit name and teams of ${u.email}`}
            data-testid="user-edit"
          >
            Edit
          </button>
          <button
            type="button"
            onClick={() => onOpen("password")}
            aria-expanded={open === "password"}
            aria-label={`Reset password of ${u.email}`}
            data-testid="user-reset-password"
          >
            Reset password
          </button>
          <ConfirmButton
            verb="Delete"
            subject={u.email}
            confirming={deleting}
            disabled={deletePending}
            onClick={onDelete}
            onCancel={onCancelDelete}
            testId="user-delete"
          />
        </span>
      </td>
    </tr>
  );
}
