// Which channels an alert goes to: a channel's scope (fleet, team, project, host) and, if it
// lists any, its alert kinds. A team's idle alerts thus reach that team's channel.

export interface RoutableAlert {
  kind: string;
  team: string | null;
  project: string | null;
  hostId: string | null;
  hostname: string | null;
}

export interface RoutableChannel {
  id: string;
  enabled: boolean;
  scopeKind: string;
  scopeValue: string;
  kinds: string;
}

export function parseKinds(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export function routes(c: RoutableChannel, a: RoutableAlert): boolean {
  if (!c.enabled) return false;
  const kinds = parseKinds(c.kinds);
  if (kinds.length > 0 && !kinds.includes(a.kind)) return false;
  const v = c.scopeValue;
  switch (c.scopeKind) {
    case "fleet":
      return true;
    case "team":
      return a.team === v;
    case "project":
      return a.project === v;
    case "host":
      return a.hostId === v || a.hostname === v;
    default:
      return false;
  }
}
