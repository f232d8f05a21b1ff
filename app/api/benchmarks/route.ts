import { actorLabel } from "@/lib/auth/actor.ts";
import { createBenchmark, listBenchmarks } from "@/lib/benchmarks/manage.ts";
import { benchmarkInputSchema } from "@/lib/benchmarks/schema.ts";
import { handle, json, noQuery, parseQuery } from "../_lib/handle.ts";
import { readBody } from "../_lib/http.ts";

/** Benchmark results per instance type, each with its cost per unit of work at today's prices. */
export const GET = handle("compare:read", async (req: Request) => {
  parseQuery(noQuery, req.url);
  return json({ rows: await listBenchmarks() });
});

/** Adds a result (operator and finance); audited with the fields accepted. */
export const POST = handle("benchmarks:write", async (req: Request, _ctx: unknown, actor) => {
  const input = await readBody(req, benchmarkInputSchema);
  return json(await createBenchmark(input, actorLabel(actor)), { status: 201 });
});
