// --collector.textfile.directory, as node_exporter's: every *.prom file in the directory is read
// once per collection tick (never per scrape). Jobs write them atomically (write foo.prom.tmp,
// then rename it to foo.prom), so a file is either the old one or the new one; names that do not
// end in .prom (the temporary files) are not read. A file that cannot be read or parsed is skipped
// whole and counted; a deleted file's series are gone at the next tick.

import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  MAX_WORK_SERIES,
  ErrorCounts,
  seriesKey,
  type WorkPart,
  type WorkSeries,
} from "./series.ts";
import { parseTextfile } from "./parse.ts";

/** Files larger than this are refused (a work counter file is a few lines). */
export const MAX_TEXTFILE_BYTES = 1024 * 1024;
/** At most this many *.prom files are read per tick, in name order. */
export const MAX_TEXTFILES = 64;

export class TextfileCollector {
  readonly errors = new ErrorCounts();

  constructor(readonly dir: string) {}

  /** One tick's reading; throws only when the directory itself cannot be listed. */
  async collect(): Promise<WorkPart> {
    const names = (await readdir(this.dir))
      .filter((n) => n.endsWith(".prom") && !n.startsWith("."))
      .sort();
    if (names.length > MAX_TEXTFILES)
      this.errors.add("too_many_files", names.length - MAX_TEXTFILES);
    const files: { file: string; mtimeSeconds: number; error: boolean }[] = [];
    const series: WorkSeries[] = [];
    const seen = new Set<string>();
    for (const name of names.slice(0, MAX_TEXTFILES)) {
      const path = join(this.dir, name);
      let mtimeSeconds = 0;
      let ok = false;
      try {
        const st = await stat(path);
        mtimeSeconds = Math.floor(st.mtimeMs / 1000);
        if (!st.isFile()) this.errors.add("not_a_file");
        else if (st.size > MAX_TEXTFILE_BYTES) this.errors.add("too_large");
        else {
          const text = await readFile(path, "utf8");
          const r = parseTextfile(text, name.slice(0, -".prom".length), this.errors);
          if (r.fatal === undefined) {
            ok = true;
            for (const s of r.series) {
              const key = seriesKey(s);
              if (seen.has(key)) this.errors.add("duplicate");
              else if (series.length >= MAX_WORK_SERIES) this.errors.add("too_many_series");
              else {
                seen.add(key);
                series.push(s);
              }
            }
          }
        }
      } catch (err) {
        // deleted between the listing and the read: gone, as it would be at the next tick
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
        this.errors.add("read");
      }
      files.push({ file: name, mtimeSeconds, error: !ok });
    }
    return { collector: "textfile", series, errors: this.errors.counts, files };
  }
}
