import { z } from "zod";

// The people directory (issue 24): who to tell about a GPU a user, a pod namespace or a Slurm
// account holds. Routes, the settings form and the CSV import share these schemas.

export const PERSON_KINDS = ["user", "namespace", "account"] as const;
export const personKindSchema = z.enum(PERSON_KINDS);
export type PersonKind = z.infer<typeof personKindSchema>;

/** A Slack member id as Slack shows it (U… or W…), mentioned as <@U…>. */
export const slackIdSchema = z
  .string()
  .trim()
  .regex(/^[UW][A-Z0-9]{2,20}$/, "a Slack member id starts with U or W (e.g. U024BE7LH)");

export const personInputSchema = z
  .strictObject({
    kind: personKindSchema.default("user"),
    key: z.string().trim().min(1).max(253),
    email: z.email().max(254).nullable().default(null),
    slackId: slackIdSchema.nullable().default(null),
  })
  .refine((p) => p.email !== null || p.slackId !== null, {
    message: "give an email address, a Slack member id or both",
    path: ["email"],
  });
export type PersonInput = z.output<typeof personInputSchema>;

export const personSchema = z.object({
  id: z.string(),
  kind: personKindSchema,
  key: z.string(),
  email: z.string().nullable(),
  slackId: z.string().nullable(),
  source: z.enum(["manual", "csv"]),
});
export type Person = z.infer<typeof personSchema>;

/** `{user}@example.com`: `{user}` is replaced by the holder's user name. */
export const emailPatternSchema = z
  .string()
  .trim()
  .max(200)
  .refine((p) => p.includes("{user}"), "the pattern must contain {user}")
  .refine(
    (p) => z.email().safeParse(p.replaceAll("{user}", "alice")).success,
    "the pattern must give an email address, e.g. {user}@example.com",
  );
