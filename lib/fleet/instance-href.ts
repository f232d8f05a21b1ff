// An instance page's canonical address is its host name (unique in the store); the old id
// addresses redirect there (app/instances/[id]/page.tsx).
export function instanceHref(hostname: string): string {
  return `/instances/${encodeURIComponent(hostname)}`;
}
