// The demo's mailbox: an SMTP server on 127.0.0.1 that `npm start` runs beside the demo fleet, so
// the demo's email channel (lib/demo/mailbox.ts) really delivers: each message it accepts is saved
// as an .eml file (open it with any mail client) under --dir. Loopback only, no AUTH, no TLS; a
// message over 1 MiB or past 1,000 saved in one run is refused with the SMTP code that says so.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SMTPServer } from "smtp-server";

const MAX_BYTES = 1024 * 1024;
const MAX_MESSAGES = 1000;

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    dir: { type: "string", default: "data/demo-mail" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`gpufleet: demo mailbox: --port must be a port number, not ${values.port}`);
  process.exit(2);
}
const dir = values.dir;
mkdirSync(dir, { recursive: true });

let saved = 0;
const server = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ["AUTH", "STARTTLS"],
  // the demo is offline: no reverse DNS lookup of the (loopback) client before the greeting
  disableReverseLookup: true,
  size: MAX_BYTES,
  logger: false,
  onData(stream, session, done) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      if (stream.sizeExceeded) {
        done(Object.assign(new Error("message over 1 MiB"), { responseCode: 552 }));
        return;
      }
      if (saved >= MAX_MESSAGES) {
        done(Object.assign(new Error("demo mailbox full"), { responseCode: 452 }));
        return;
      }
      saved += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(",");
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${saved}.eml`;
      const path = join(dir, name);
      // envelope recipients first (a catcher's convention), then the message as received
      writeFileSync(
        `${path}.tmp`,
        Buffer.concat([Buffer.from(`X-Envelope-To: ${to}\r\n`), ...chunks]),
      );
      renameSync(`${path}.tmp`, path);
      console.log(`gpufleet: demo mailbox: mail to ${to} saved as ${path}`);
      done();
    });
  },
});
let listening = false;
server.on("error", (e: Error) => {
  console.error(`gpufleet: demo mailbox: ${e.message}`);
  // not listening at all (the port was taken meanwhile): npm start stops and says so
  if (!listening) process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  listening = true;
  console.log(`gpufleet: demo mailbox on smtp://127.0.0.1:${port}, saving mail under ${dir}/`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
