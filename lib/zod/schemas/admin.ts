import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "@/lib/auth/roles.ts";

// Bodies of the admin routes: users, API tokens, settings, and the first-run setup.

const email = z.email({ error: "enter a valid email address" }).max(200);
const password = z
  .string()
  .min(12, { error: "passwords have at least 12 characters" })
  .max(256, { error: "passwords have at most 256 characters" });
const teams = z
  .array(z.string().trim().min(1).max(100))
  .max(50)
  .describe("teams the user is limited to; empty for every team");

export const createUserSchema = z.strictObject({
  email,
  name: z.string().trim().max(100).optional(),
  password,
  role: z.enum(ROLES),
  teams: teams.optional(),
});

export const updateUserSchema = z
  .strictObject({
    name: z.string().trim().max(100).optional(),
    role: z.enum(ROLES).optional(),
    teams: teams.optional(),
    password: password.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: "nothing to change" });

export const createTokenSchema = z.strictObject({
  name: z.string().trim().min(1, { error: "name the token" }).max(100),
  scope: z.enum(TOKEN_SCOPES),
});

export const setupSchema = z.strictObject({
  token: z.string().min(1).max(100),
  email,
  name: z.string().trim().max(100).optional(),
  password,
});

export const auditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.iso.datetime().optional(),
  beforeId: z.string().max(100).optional().describe("with before: entries at that time sort by id"),
  action: z.string().max(100).optional(),
  actor: z.string().max(200).optional(),
});
