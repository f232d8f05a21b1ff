import type { Prisma as Sqlite } from "../generated/prisma/client.ts";
import type { Prisma as Pg } from "../generated/prisma-pg/client.ts";

// Compile-time check (run by `tsc --noEmit`) that the PostgreSQL client, which lib/db.ts casts to
// the SQLite client's type, has the same models, the same operations and the same row types.

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
type SqliteModels = Sqlite.TypeMap["model"];
type PgModels = Pg.TypeMap["model"];
type Model = keyof SqliteModels & keyof PgModels;

export type ModelsMatch = Expect<Same<keyof SqliteModels, keyof PgModels>>;
export type OperationsMatch = Expect<
  {
    [M in Model]: Same<keyof SqliteModels[M]["operations"], keyof PgModels[M]["operations"]>;
  }[Model]
>;
export type RowsMatch = Expect<
  {
    [M in Model]: Same<SqliteModels[M]["payload"]["scalars"], PgModels[M]["payload"]["scalars"]>;
  }[Model]
>;
