import type { ImportResult } from "./apply.ts";

// What an import did, as lines for the CLI (the settings panel shows the same result as a table).

export function reportLines(r: ImportResult): string[] {
  const lines = [...r.describes];
  lines.push(
    `${r.dryRun ? "would add" : "added"} ${r.added}, unchanged ${r.unchanged}, conflicts ${r.conflicts.length}, skipped (not GPU) ${r.skippedNonGpu}`,
  );
  for (const row of r.addedRows.slice(0, 50)) {
    lines.push(
      `  + ${row.provider} ${row.instanceType} ${row.region} ${row.pricingModel}: $${row.usdPerHour}/h (${row.gpuCount}× ${row.gpuModel}) from ${row.effectiveFrom.slice(0, 10)}`,
    );
  }
  if (r.added > 50) lines.push(`  … and ${r.added - 50} more`);
  for (const c of r.conflicts) {
    lines.push(
      `  ! conflict: ${c.provider} ${c.instanceType} ${c.region} ${c.pricingModel} from ${c.effectiveFrom.slice(0, 10)}: stored $${c.storedUsdPerHour} (${c.storedOrigin}), file $${c.importedUsdPerHour} (${c.where}); not overwritten: edit the row on /settings, or import a file with a later effective date`,
    );
  }
  const reasons = Object.entries(r.skipped).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0) {
    lines.push("left out:");
    for (const [reason, n] of reasons) lines.push(`  ${n} × ${reason}`);
  }
  return lines;
}
