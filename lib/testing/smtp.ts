import { SMTPServer, type SMTPServerOptions } from "smtp-server";

// A real SMTP server on 127.0.0.1 for tests (the smtp-server package): it keeps each message it
// accepted with its envelope and its text and HTML parts decoded, so tests read what a person's
// mail client would show. Plain SMTP on loopback, optionally with AUTH (one user and password).

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  headers: string;
  text: string;
  html: string;
}

export interface SmtpSink {
  host: "127.0.0.1";
  port: number;
  mails: ReceivedMail[];
  /** AUTH attempts, with whether they were accepted */
  logins: { user: string; ok: boolean }[];
  /** connection errors the server reported (e.g. a TLS handshake the client broke off) */
  errors: Error[];
  close(): Promise<void>;
}

function decodePart(body: string, encoding: string): string {
  const e = encoding.toLowerCase();
  if (e === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (e === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

function header(head: string, name: string): string {
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const m = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return m?.[1]?.trim() ?? "";
}

/** The text/plain and text/html parts of a (multipart/alternative) message. */
export function parseMail(
  raw: string,
): Pick<ReceivedMail, "subject" | "headers" | "text" | "html"> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const out = { subject: header(head, "Subject"), headers: head, text: "", html: "" };
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head.replace(/\r?\n[ \t]+/g, " "))?.[1];
  const parts = boundary ? body.split(`--${boundary}`) : [`${head}\r\n\r\n${body}`];
  for (const part of parts) {
    const i = part.search(/\r?\n\r?\n/);
    if (i < 0) continue;
    const ph = part.slice(0, i);
    const pb = part.slice(i).replace(/^\r?\n\r?\n/, "");
    const type = header(ph, "Content-Type").toLowerCase();
    const text = decodePart(pb, header(ph, "Content-Transfer-Encoding") || "7bit");
    if (type.startsWith("text/plain")) out.text = text;
    else if (type.startsWith("text/html")) out.html = text;
  }
  return out;
}

export async function startSmtpSink(
  opts: {
    user?: string;
    password?: string;
    /** a fixed port (a server coming back where it was); default: any free one */
    port?: number;
    server?: Partial<SMTPServerOptions>;
  } = {},
): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const logins: { user: string; ok: boolean }[] = [];
  const errors: Error[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: !opts.user,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      const ok = auth.username === opts.user && auth.password === opts.password;
      logins.push({ user: auth.username ?? "", ok });
      if (ok) cb(null, { user: auth.username });
      else cb(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parseMail(raw),
        });
        cb();
      });
    },
    ...opts.server,
  });
  // a client that gives up mid-handshake (an untrusted certificate) is an error event on the server
  server.on("error", (e: Error) => errors.push(e));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const addr = server.server.address();
  if (typeof addr !== "object" || !addr) throw new Error("SMTP sink has no port");
  return {
    host: "127.0.0.1",
    port: addr.port,
    mails,
    logins,
    errors,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
