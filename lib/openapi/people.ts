import { z } from "zod";
import { myGpusSchema } from "../zod/schemas/my-gpus.ts";
import { personInputSchema, personSchema } from "../zod/schemas/person.ts";
import { schemaOf, ok, err, type JsonObject } from "../zod/openapi-parts.ts";

// OpenAPI paths of the people directory (issue 24, lib/people), merged by lib/openapi/openapi.ts.

export function peoplePaths(): JsonObject {
  return {
    "/api/me/gpus": {
      get: {
        summary:
          "My GPUs: what the signed-in person holds now (through the people directory), its cost and alerts",
        responses: { "200": ok("MyGpus"), "403": err("an API token has no GPUs of its own") },
      },
    },
    "/api/people": {
      get: {
        summary: "The people directory: who hears about GPUs a user, namespace or account holds",
        responses: { "200": ok("PersonList") },
      },
      post: {
        summary: "Add or replace one entry by hand (kind + key is its identity)",
        requestBody: {
          required: true,
          content: { "application/json": { schema: schemaOf(personInputSchema, "input") } },
        },
        responses: { "201": ok("Person", "saved"), "400": err("invalid body") },
      },
    },
    "/api/people/{id}": {
      delete: {
        summary: "Delete one entry",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "204": { description: "deleted" }, "404": err("no such entry") },
      },
    },
    "/api/people/import": {
      post: {
        summary:
          "Replace the CSV entries with a CSV body (text/csv, 4 MiB): kind,key,email,slack_id; entries added by hand are kept",
        requestBody: { required: true, content: { "text/csv": { schema: { type: "string" } } } },
        responses: {
          "200": ok("PeopleImportResult"),
          "400": err("a bad line (named) refuses the whole file"),
          "413": err("over 4 MiB"),
          "415": err("not text/csv"),
        },
      },
    },
  };
}

export function peopleSchemas(): JsonObject {
  return {
    Person: schemaOf(personSchema),
    MyGpus: schemaOf(myGpusSchema),
    PersonList: schemaOf(z.array(personSchema)),
    PeopleImportResult: schemaOf(
      z.object({ imported: z.number().int(), keptManual: z.number().int() }),
    ),
  };
}
