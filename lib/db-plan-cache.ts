// @ts-expect-error Prisma ships no types for its query compiler's wasm glue
import { QueryCompiler as SqliteCompiler } from "@prisma/client/runtime/query_compiler_bg.sqlite.mjs";
// @ts-expect-error as above
import { QueryCompiler as PgCompiler } from "@prisma/client/runtime/query_compiler_bg.postgresql.mjs";

// Prisma 6.19's client engine compiles every query to a plan in its wasm query compiler and
// deserializes that plan into JS objects, each time: a quarter of the app's CPU per request under
// bench:load (bench/README.md, "Load"). A plan is a pure function of the query (the JSON request
// with its argument values; ids and now() defaults are generator calls run at execution, not at
// compile time) and of the compiler's schema, so the same query can reuse its plan. Pages and
// polling APIs ask the same queries again and again (the costs month, the alerts list, the price
// catalogue); writes carry their own values and simply miss. Plans are cached per compiler
// instance, least recently used first out, frozen so that nothing can change a shared one, and
// large requests (bulk writes, long id lists) are compiled as before and never kept.

const MAX_PLANS = 500;
const MAX_KEY_CHARS = 8192;

type Compile = (this: object, request: string) => unknown;
interface CompilerClass {
  prototype: { compile: Compile };
}

const caches = new WeakMap<object, Map<string, unknown>>();
const stats = { hits: 0, misses: 0, skipped: 0 };

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Wraps a compiler class's `compile` with the plan cache (once per class). */
export function cachePlans(cls: CompilerClass): void {
  const original = cls.prototype.compile;
  if ((original as { planCache?: true }).planCache) return;
  const compile: Compile = function (this: object, request: string) {
    if (request.length > MAX_KEY_CHARS) {
      stats.skipped++;
      return original.call(this, request);
    }
    let cache = caches.get(this);
    if (!cache) caches.set(this, (cache = new Map()));
    const hit = cache.get(request);
    if (hit !== undefined) {
      stats.hits++;
      cache.delete(request); // most recently used last
      cache.set(request, hit);
      return hit;
    }
    stats.misses++;
    const plan = deepFreeze(original.call(this, request));
    cache.set(request, plan);
    if (cache.size > MAX_PLANS) cache.delete(cache.keys().next().value as string);
    return plan;
  };
  Object.assign(compile, { planCache: true });
  cls.prototype.compile = compile;
}

/** Hits, misses and requests too large to keep, since the process started. */
export function planCacheStats(): Readonly<typeof stats> {
  return { ...stats };
}

cachePlans(SqliteCompiler as CompilerClass);
cachePlans(PgCompiler as CompilerClass);
