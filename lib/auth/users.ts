import "server-only";
import { InvalidInputError } from "../core/errors.ts";
import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { db } from "@/lib/db.ts";
import { parseTeams } from "./actor.ts";
import { isRole, type Role } from "./roles.ts";

// People and their roles. Passwords go through better-auth's scrypt hash, into the
// "credential" account better-auth reads at sign-in.

/** A refused user change (duplicate email, last admin): a 400 naming the field. */
export class UserInputError extends InvalidInputError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message, [{ path: field, message }]);
    this.name = "UserInputError";
  }
}

export type UserView = {
  id: string;
  email: string;
  name: string;
  role: Role;
  teams: string[];
  createdAt: string;
};

type Row = {
  id: string;
  email: string;
  name: string;
  role: string;
  teams: string;
  createdAt: Date;
};

function view(r: Row): UserView {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: isRole(r.role) ? r.role : "viewer",
    teams: parseTeams(r.teams),
    createdAt: r.createdAt.toISOString(),
  };
}

/** Whether a user has this (lowercased) email: a sign-in's refusals are audited per account. */
export async function emailHasAccount(email: string): Promise<boolean> {
  return (await db.user.findUnique({ where: { email }, select: { id: true } })) !== null;
}

export async function countUsers(): Promise<number> {
  return db.user.count();
}

export async function listUsers(): Promise<UserView[]> {
  return (await db.user.findMany({ orderBy: { email: "asc" } })).map(view);
}

export async function createUser(input: {
  email: string;
  name?: string;
  password: string;
  role: Role;
  teams?: string[];
}): Promise<UserView> {
  const email = input.email.trim().toLowerCase();
  if (await db.user.findUnique({ where: { email } })) {
    throw new UserInputError(`a user with the email ${email} already exists`, "email");
  }
  const id = randomUUID();
  const password = await hashPassword(input.password);
  const row = await db.user.create({
    data: {
      id,
      email,
      name: input.name ?? email.split("@")[0] ?? email,
      role: input.role,
      teams: JSON.stringify(input.teams ?? []),
      emailVerified: true,
      accounts: {
        create: { id: randomUUID(), accountId: id, providerId: "credential", password },
      },
    },
  });
  return view(row);
}

/** Changes role, teams, name or password; a password change signs the user out everywhere. */
export async function updateUser(
  id: string,
  patch: { name?: string; role?: Role; teams?: string[]; password?: string },
): Promise<{ before: UserView; after: UserView } | null> {
  const row = await db.user.findUnique({ where: { id } });
  if (!row) return null;
  const before = view(row);
  if (before.role === "admin" && patch.role !== undefined && patch.role !== "admin") {
    await refuseLastAdmin(id, "demote");
  }
  const updated = await db.user.update({
    where: { id },
    data: {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.role !== undefined ? { role: patch.role } : {}),
      ...(patch.teams !== undefined ? { teams: JSON.stringify(patch.teams) } : {}),
    },
  });
  if (patch.password !== undefined) {
    const password = await hashPassword(patch.password);
    const changed = await db.account.updateMany({
      where: { userId: id, providerId: "credential" },
      data: { password },
    });
    if (changed.count === 0) {
      await db.account.create({
        data: { id: randomUUID(), accountId: id, providerId: "credential", userId: id, password },
      });
    }
    await db.session.deleteMany({ where: { userId: id } });
  }
  // a role or team change takes effect on the next request: roles are read from the user row
  return { before, after: view(updated) };
}

async function refuseLastAdmin(id: string, verb: string): Promise<void> {
  const admins = await db.user.count({ where: { role: "admin", id: { not: id } } });
  if (admins === 0) {
    throw new UserInputError(
      `cannot ${verb} the last admin: make another user admin first`,
      "role",
    );
  }
}

export async function deleteUser(id: string): Promise<UserView | null> {
  const row = await db.user.findUnique({ where: { id } });
  if (!row) return null;
  if (row.role === "admin") await refuseLastAdmin(id, "delete");
  await db.user.delete({ where: { id } });
  return view(row);
}
