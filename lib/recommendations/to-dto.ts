import {
  evidenceSchema,
  type Evidence,
  type RecommendationDto,
  type RecommendationKind,
  type RecommendationState,
} from "../zod/schemas/recommendation.ts";
import { CONVENTION } from "./types.ts";

const EMPTY: Evidence = {
  from: new Date(0).toISOString(),
  to: new Date(0).toISOString(),
  metrics: {},
  series: [],
  current: null,
  proposed: null,
  hourlySavingMicros: "0",
  convention: CONVENTION,
  caveat: null,
};

export function parseEvidence(json: string): Evidence {
  try {
    const r = evidenceSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

export interface RecoRow {
  id: string;
  kind: string;
  hostId: string;
  gpuUuid: string | null;
  title: string;
  details: string;
  evidence: string;
  monthlySavingMicros: bigint;
  state: string;
  dismissReason: string | null;
  snoozedUntil: Date | null;
  actedBy: string | null;
  actedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  host: { hostname: string; team: string; project: string; owner: string | null };
}

export function recommendationDto(r: RecoRow): RecommendationDto {
  return {
    id: r.id,
    kind: r.kind as RecommendationKind,
    hostId: r.hostId,
    hostname: r.host.hostname,
    gpuUuid: r.gpuUuid,
    team: r.host.team,
    project: r.host.project,
    owner: r.host.owner,
    title: r.title,
    details: r.details,
    evidence: parseEvidence(r.evidence),
    monthlySavingMicros: r.monthlySavingMicros.toString(),
    state: r.state as RecommendationState,
    dismissReason: r.dismissReason,
    snoozedUntil: r.snoozedUntil ? r.snoozedUntil.toISOString() : null,
    actedBy: r.actedBy,
    actedAt: r.actedAt ? r.actedAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
