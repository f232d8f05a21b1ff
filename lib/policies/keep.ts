import "server-only";
import { db } from "../db.ts";
import { redeemKeepLink, type KeepResult } from "./keep-link.ts";

/** The keep route's service: redeems a link against the app's store now. */
export function redeemKeepLinkNow(token: string, ip: string | null): Promise<KeepResult> {
  return redeemKeepLink(db, token, new Date(), ip);
}
