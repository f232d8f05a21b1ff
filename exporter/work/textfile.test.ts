import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_TEXTFILE_BYTES, TextfileCollector } from "./textfile.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gpufleet-textfile-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What a training loop does: write a temporary file, then rename it over the old one. */
function writeAtomically(name: string, text: string): void {
  const tmp = join(dir, `${name}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(dir, name));
}

const samples = (job: string, n: number) =>
  `# TYPE gpufleet_work_units_total counter\ngpufleet_work_units_total{unit="samples",job="${job}"} ${n}\n`;

describe("textfile collector", () => {
  it("reads files renamed into place, and never the temporary ones", async () => {
    const c = new TextfileCollector(dir);
    writeAtomically("train.prom", samples("train", 100));
    writeFileSync(join(dir, "train.prom.tmp"), samples("half-written", 1)); // a write in progress
    let part = await c.collect();
    expect(part.series).toEqual([
      { unit: "samples", modelName: "", job: "train", source: "textfile", value: 100 },
    ]);
    expect(part.files?.map((f) => f.file)).toEqual(["train.prom"]);
    writeAtomically("train.prom", samples("train", 250));
    part = await c.collect();
    expect(part.series.map((s) => s.value)).toEqual([250]);
  });

  it("skips a malformed file (flagged, counted) and serves the others", async () => {
    const c = new TextfileCollector(dir);
    writeAtomically("a.prom", samples("a", 1));
    writeAtomically("b.prom", 'gpufleet_work_units_total{unit="samples",job="b" 5\n');
    writeAtomically("c.prom", samples("c", 3));
    const part = await c.collect();
    expect(part.series.map((s) => s.job)).toEqual(["a", "c"]);
    expect(part.files?.find((f) => f.file === "b.prom")?.error).toBe(true);
    expect(part.files?.find((f) => f.file === "a.prom")?.error).toBe(false);
    expect(part.errors.get("parse")).toBe(1);
    // counted again at each tick it is still there
    expect((await c.collect()).errors.get("parse")).toBe(2);
  });

  it("drops a deleted file's series at the next tick", async () => {
    const c = new TextfileCollector(dir);
    writeAtomically("a.prom", samples("a", 1));
    writeAtomically("b.prom", samples("b", 2));
    expect((await c.collect()).series.map((s) => s.job)).toEqual(["a", "b"]);
    unlinkSync(join(dir, "b.prom"));
    const part = await c.collect();
    expect(part.series.map((s) => s.job)).toEqual(["a"]);
    expect(part.files?.map((f) => f.file)).toEqual(["a.prom"]);
  });

  it("refuses oversized files and duplicate series, counting each", async () => {
    const c = new TextfileCollector(dir);
    writeAtomically("big.prom", "#".repeat(MAX_TEXTFILE_BYTES + 1));
    writeAtomically("one.prom", samples("same", 1));
    writeAtomically("two.prom", samples("same", 2));
    const part = await c.collect();
    expect(part.series.map((s) => s.value)).toEqual([1]);
    expect(part.errors.get("too_large")).toBe(1);
    expect(part.errors.get("duplicate")).toBe(1);
    expect(part.files?.find((f) => f.file === "big.prom")?.error).toBe(true);
  });

  it("throws when the directory cannot be listed (the collector reports failure)", async () => {
    await expect(new TextfileCollector(join(dir, "missing")).collect()).rejects.toThrow(/ENOENT/);
  });
});
