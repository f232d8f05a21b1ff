"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/auth/roles.ts";
import { adminQueries, userSchema, type UserDto } from "@/lib/queries/admin.ts";
import { sendJson } from "@/lib/queries/settings-send.ts";
import { createUserSchema, updateUserSchema } from "@/lib/zod/schemas/admin.ts";
import { Field, FormError, requestErrors, zodErrors, type Errors } from "../settings/form-bits.tsx";
import { foldListErrors, parseTeamsText, teamsText } from "./admin-bits.ts";

const TEAMS_HINT = "comma-separated, e.g. ml, research; empty for every team";
const PASSWORD_HINT = "at least 12 characters";

function userUrl(id: string): string {
  return `/api/users/${encodeURIComponent(id)}`;
}

/** Adds a person with a role and, optionally, the teams they are limited to. */
export function UserCreateForm({ onDone }: { onDone: () => void }) {
  const client = useQueryClient();
  const [v, setV] = useState({
    email: "",
    name: "",
    password: "",
    role: "viewer" as Role,
    teams: "",
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: keyof typeof v, value: string) => setV((old) => ({ ...old, [k]: value }));
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => sendJson("POST", "/api/users", body, userSchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(foldListErrors(requestErrors(e), "teams")),
  });
  const submit = () => {
    const name = v.name.trim();
    const body = {
      email: v.email.trim(),
      ...(name !== "" ? { name } : {}),
      password: v.password,
      role: v.role,
      teams: parseTeamsText(v.teams),
    };
    const parsed = createUserSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(foldListErrors(zodErrors(parsed.error), "teams"));
      return;
    }
    setErrors({});
    save.mutate(body);
  };
  const text = (
    k: "email" | "name" | "password" | "teams",
    label: string,
    type: string,
    autoComplete: string,
    hint?: string,
  ) => (
    <Field label={label} error={errors[k]} hint={hint}>
      <input
        type={type}
        value={v[k]}
        autoComplete={autoComplete}
        onChange={(e) => set(k, e.target.value)}
        aria-invalid={errors[k] ? true : undefined}
        data-testid={`user-${k}`}
      />
    </Field>
  );
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="user-form"
    >
      <FormError errors={errors} />
      {text("email", "Email", "email", "off")}
      {text("name", "Name", "text", "off", "optional; defaults to the email's local part")}
      {text("password", "Password", "password", "new-password", PASSWORD_HINT)}
      <Field label="Role" error={errors.role}>
        <select
          value={v.role}
          onChange={(e) => set("role", e.target.value)}
          aria-invalid={errors.role ? true : undefined}
          data-testid="user-role"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </Field>
      {text("teams", "Teams", "text", "off", TEAMS_HINT)}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending} data-testid="user-save">
          {save.isPending ? "Adding…" : "Add user"}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Name and teams of an existing user. */
export function UserEditForm({ user, onDone }: { user: UserDto; onDone: () => void }) {
  const client = useQueryClient();
  const [v, setV] = useState({ name: user.name, teams: teamsText(user.teams) });
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      sendJson("PATCH", userUrl(user.id), body, userSchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(foldListErrors(requestErrors(e), "teams")),
  });
  const submit = () => {
    const body = { name: v.name.trim(), teams: parseTeamsText(v.teams) };
    const parsed = updateUserSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(foldListErrors(zodErrors(parsed.error), "teams"));
      return;
    }
    setErrors({});
    save.mutate(body);
  };
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      aria-label={`Edit ${user.email}`}
      data-testid="user-edit-form"
    >
      <FormError errors={errors} />
      <Field label="Name" error={errors.name}>
        <input
          type="text"
          value={v.name}
          onChange={(e) => setV((old) => ({ ...old, name: e.target.value }))}
          aria-invalid={errors.name ? true : undefined}
          data-testid="user-edit-name"
        />
      </Field>
      <Field label="Teams" error={errors.teams} hint={TEAMS_HINT}>
        <input
          type="text"
          value={v.teams}
          onChange={(e) => setV((old) => ({ ...old, teams: e.target.value }))}
          aria-invalid={errors.teams ? true : undefined}
          data-testid="user-edit-teams"
        />
      </Field>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="user-edit-save"
        >
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Sets a new password; the server signs the user out of every session. */
export function PasswordResetForm({
  user,
  self,
  onDone,
}: {
  user: UserDto;
  self: boolean;
  onDone: () => void;
}) {
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: { password: string }) =>
      sendJson("PATCH", userUrl(user.id), body, userSchema),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminQueries.all() });
      onDone();
    },
    onError: (e) => setErrors(requestErrors(e)),
  });
  const submit = () => {
    const parsed = updateUserSchema.safeParse({ password });
    if (!parsed.success) {
      setErrors(zodErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate({ password });
  };
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      aria-label={`Reset the password of ${user.email}`}
      data-testid="user-password-form"
    >
      <FormError errors={errors} />
      <Field label={`New password for ${user.email}`} error={errors.password} hint={PASSWORD_HINT}>
        <input
          type="password"
          value={password}
          autoComplete="new-password"
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={errors.password ? true : undefined}
          data-testid="user-password"
        />
      </Field>
      <p className="muted small">
        {self
          ? "This signs you out of every session, this one included."
          : "This signs them out of every session."}
      </p>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={save.isPending}
          data-testid="user-password-save"
        >
          Set password
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
