import type { NotificationMessage } from "./message.ts";

// An email's subject and bodies from a notification message: plain text, and HTML in which every
// piece of text is escaped (summaries carry host names, labels and holder names, which come from
// exporters and users), so nothing in an alert can add markup, links or scripts to the mail.

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Header values are one line: no CR/LF an alert could use to add headers. */
function oneLine(s: string, max = 200): string {
  const flat = s.replace(/[\r\n\t]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function emailBody(
  m: NotificationMessage,
  publicUrl: string | undefined,
): { subject: string; text: string; html: string } {
  const link = publicUrl ? `${publicUrl.replace(/\/+$/, "")}${m.path}` : null;
  const subject = oneLine(`${m.test ? "[TEST] " : ""}${m.title}`);
  const text = [m.text, link ? `\nOpen the alert: ${link}` : "", "\n— gpufleet"].join("\n");
  const facts = [
    m.owner ? ["Owner", m.owner] : null,
    m.alert.team ? ["Team", m.alert.team] : null,
    m.alert.project ? ["Project", m.alert.project] : null,
    ["Rule", m.alert.rule],
  ].filter((x): x is [string, string] => x !== null);
  const html = [
    "<!doctype html>",
    '<html><body style="font-family: sans-serif; line-height: 1.4">',
    `<h2 style="font-size: 1.1em">${escapeHtml(subject)}</h2>`,
    `<p>${escapeHtml(m.alert.summary)}</p>`,
    ...m.notes.map((n) => `<p>${escapeHtml(n)}</p>`),
    "<table>",
    ...facts.map(
      ([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    ),
    "</table>",
    link ? `<p><a href="${escapeHtml(link)}">Open the alert in gpufleet</a></p>` : "",
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
