import { env } from "../env.ts";

// Absolute links back to the app (Alertmanager's generatorURL): GPUFLEET_PUBLIC_URL, path prefix
// included, or the loopback address `npm start` serves on when it is unset (as sign-in does).
export function appPublicUrl(): string {
  return (env.GPUFLEET_PUBLIC_URL ?? `http://127.0.0.1:${env.PORT}`).replace(/\/+$/, "");
}
