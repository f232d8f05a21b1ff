import { z } from "zod";
import { hostStateSchema } from "./instance.ts";

// The instance table's view state: shared by the URL (so a view can be shared), the page and
// GET /api/instances. The API rejects bad values; the page falls back to defaults instead.

export const SORT_KEYS = [
  "hostname",
  "provider",
  "instanceType",
  "pricingModel",
  "team",
  "gpus",
  "util",
  "memory",
  "price",
  "state",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const sortKeySchema = z.enum(SORT_KEYS);
export const sortDirSchema = z.enum(["asc", "desc"]);

const filterText = z.string().trim().max(100, { error: "at most 100 characters" });

export const tableQuerySchema = z.strictObject({
  sort: sortKeySchema.default("hostname"),
  dir: sortDirSchema.default("asc"),
  provider: filterText.optional(),
  team: filterText.optional(),
  state: hostStateSchema.optional(),
  q: filterText.optional().describe("case-insensitive text over hostname, type, region, project"),
});
export type TableQuery = z.infer<typeof tableQuerySchema>;

export const DEFAULT_TABLE_QUERY: TableQuery = { sort: "hostname", dir: "asc" };
