/* global process, setInterval */
// Preloaded (NODE_OPTIONS=--import) into every process `npm start` runs in the background: if the
// launcher dies without cleaning up (SIGKILL, a test runner's timeout), its children exit too
// instead of holding ports.
const parent = Number(process.env.GPUFLEET_PARENT_PID);
if (Number.isInteger(parent) && parent > 1) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 2000).unref();
}
