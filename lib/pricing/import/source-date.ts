import { ImportFormatError, type ParseOptions } from "./types.ts";

// Azure pages and GCP catalog pages carry no publication date of their own: the person importing
// says when they were downloaded, and that date is each row's sourceDate.

const DAY_OR_MONTH = /^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/;

export function isSourceDate(value: string): boolean {
  return DAY_OR_MONTH.test(value);
}

export function requireSourceDate(file: string, opts: ParseOptions, what: string): string {
  const d = opts.sourceDate?.trim() ?? "";
  if (!isSourceDate(d)) {
    throw new ImportFormatError(
      file,
      "",
      d === ""
        ? `${what} carry no date: give the day they were downloaded (--source-date=YYYY-MM-DD)`
        : `source date ${JSON.stringify(d)} is not YYYY-MM-DD or YYYY-MM`,
    );
  }
  return d;
}
