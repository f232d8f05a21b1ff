import { listPeople, savePerson } from "@/lib/people/directory.ts";
import { personInputSchema } from "@/lib/zod/schemas/person.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

// The people directory (issue 24): who hears about the GPUs a user, namespace or account holds.
// Admins only: it maps personal data (names to addresses) for the whole fleet.
export const GET = handle("settings:write", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json(await listPeople());
});

export const POST = handle("settings:write", async (req: Request) => {
  parseQuery(noQuery, req.url);
  const input = await readBody(req, personInputSchema);
  return json(await savePerson(input), { status: 201 });
});
