// Rebuilds focus-1.2-columns.json from a clone of the FOCUS specification repository:
//   node --import tsx lib/focus/spec/build-spec.ts <FOCUS_Spec clone or .git dir> [ref=v1.2]
// then `npx prettier --write lib/focus/spec/focus-1.2-columns.json`. Reads through git, so a
// bare clone works and nothing in the work tree has to be checked out.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gitBlobId, specColumn, type FocusSpec } from "./parse-spec.ts";

/** The attribute files the checker's rules come from (kept verbatim beside the columns). */
export const ATTRIBUTE_FILES = [
  "column_handling.md",
  "datetime_format.md",
  "numeric_format.md",
  "key_value_format.md",
  "null_handling.md",
  "discount_handling.md",
];

function git(repo: string, args: string[]): string {
  return execFileSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
}

function main(): void {
  const [repo, ref = "v1.2"] = process.argv.slice(2);
  if (!repo) {
    console.error("usage: build-spec.ts <FOCUS_Spec clone> [ref]");
    process.exit(2);
  }
  const commit = git(repo, ["rev-parse", `${ref}^{commit}`]).trim();
  const commitDate = git(repo, ["log", "-1", "--format=%cI", commit]).trim();
  const show = (path: string) => git(repo, ["show", `${commit}:${path}`]);
  const files = git(repo, ["ls-tree", "--name-only", commit, "specification/columns/"])
    .split("\n")
    .filter((f) => f.endsWith(".md"))
    .sort();
  const columns = files.map((f) => specColumn(show(f), basename(f)));
  const attributes = ATTRIBUTE_FILES.map((f) => {
    const markdown = show(`specification/attributes/${f}`);
    return { file: f, gitBlob: gitBlobId(markdown), markdown };
  });
  const spec: FocusSpec = {
    version: "1.2",
    repository: "https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec",
    ref,
    commit,
    commitDate,
    license: "CC-BY-4.0",
    columns,
    attributes,
  };
  const out = join(import.meta.dirname, "focus-1.2-columns.json");
  writeFileSync(out, `${JSON.stringify(spec, null, 2)}\n`);
  console.log(`${columns.length} columns, ${attributes.length} attributes -> ${out}`);
}

main();
