-- Re-pricing a month rewrites the changed GPU-hour rows in place (issue 27): with a quarter of each
-- page left free, most new row versions stay on their page and skip the four indexes of UsageHour
-- (HOT updates). Applies to pages written from now on, and VACUUM FULL rewrites the old ones.
-- PostgreSQL only: the Prisma schema has no storage parameters and SQLite has no fillfactor.
ALTER TABLE "UsageHour" SET (fillfactor = 75);
