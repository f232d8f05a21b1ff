// What the FOCUS checker (check.ts, check-rules.ts) collects: issues, counted per rule and column.

export interface CheckIssue {
  rule: string;
  column: string;
  message: string;
  /** how many rows break it, and the first few (0-based, data rows) */
  count: number;
  rows: number[];
}

const SAMPLE_ROWS = 5;

/** Collects issues, one per (rule, column, message), counting the rows that break it. */
export class IssueList {
  private readonly byKey = new Map<string, CheckIssue>();

  add(rule: string, column: string, message: string, row?: number): void {
    const key = `${rule}\u0000${column}\u0000${message}`;
    let issue = this.byKey.get(key);
    if (!issue) {
      issue = { rule, column, message, count: 0, rows: [] };
      this.byKey.set(key, issue);
    }
    if (row === undefined) return;
    issue.count++;
    if (issue.rows.length < SAMPLE_ROWS) issue.rows.push(row);
  }

  list(): CheckIssue[] {
    return [...this.byKey.values()];
  }
}
