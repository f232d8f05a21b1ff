// What the file-import commands share (`rates:import`, `spot:import`): `--file=PATH` (repeatable),
// `--dry-run` and `--help`, a one-line refusal naming the command, and each file checked to be a
// readable regular file under the command's size cap before it is read.
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";

export interface FileCli {
  paths: string[];
  dryRun: boolean;
  /** prints "gpufleet: <command>: <message>" to stderr and exits 1 */
  fail: (message: string) => never;
  /** the file's text, or a refusal when it is not a regular file or is over `maxBytes` */
  read: (path: string) => string;
}

export function fileCli(command: string, usage: string, maxBytes: number, note = ""): FileCli {
  const fail = (message: string): never => {
    console.error(`gpufleet: ${command}: ${message}`);
    process.exit(1);
  };
  let values: { file?: string[]; "dry-run"?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        file: { type: "string", multiple: true },
        "dry-run": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (e) {
    return fail(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const paths = values.file ?? [];
  if (paths.length === 0) fail(`give at least one --file\n${usage}`);
  const read = (path: string): string => {
    let size = 0;
    try {
      const st = statSync(path);
      if (!st.isFile()) fail(`${path} is not a file`);
      size = st.size;
    } catch {
      fail(`cannot read ${path}`);
    }
    if (size > maxBytes) fail(`${path} is over ${maxBytes >> 20} MiB${note ? `: ${note}` : ""}`);
    return readFileSync(path, "utf8");
  };
  return { paths, dryRun: values["dry-run"] ?? false, fail, read };
}
