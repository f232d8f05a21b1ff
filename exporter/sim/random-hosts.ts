// Seeded random host designs for fleets beyond the 24 demo hosts. Each host depends only on
// (seed, id), so growing the fleet never changes the hosts already there.
import { instanceType } from "./catalogue.ts";
import { TEAMS, type HostDesign } from "./demo-hosts.ts";
import { gpuModel } from "./gpu-models.ts";
import { hash, mulberry32, pick, pickWeighted } from "./rand.ts";
import type { PricingModel } from "./types.ts";

// Mostly 8-GPU boxes: benchmark fleets should reach ~8 GPUs per host on average.
const TYPE_WEIGHTS: readonly (readonly [string, number])[] = [
  ["p4d.24xlarge", 20],
  ["p5.48xlarge", 24],
  ["p5en.48xlarge", 6],
  ["a3-highgpu-8g", 20],
  ["Standard_ND96asr_v4", 15],
  ["dgx-a100", 12],
  ["g4dn.xlarge", 0.5],
  ["g5.xlarge", 0.6],
  ["g6.xlarge", 0.4],
  ["g2-standard-4", 0.4],
  ["a2-ultragpu-1g", 0.3],
  ["a2-highgpu-1g", 0.2],
  ["Standard_NC4as_T4_v3", 0.3],
  ["ecs.gn6i-c4g1.xlarge", 0.3],
];

const TEAM_WEIGHTS: readonly (readonly [string, number])[] = [
  ["research", 4],
  ["inference", 3],
  ["platform", 1],
  ["data-science", 2],
  ["vision", 1],
];

type Kind = "training" | "inference" | "dev";

function pricing(rnd: () => number, provider: string, gpus: number): PricingModel {
  if (provider === "onprem") return "reserved";
  if (provider === "alibaba") return rnd() < 0.2 ? "reserved" : "on_demand";
  if (gpus >= 8) {
    return pickWeighted<PricingModel>(rnd, [
      ["reserved", 35],
      ["on_demand", 40],
      ["spot", 25],
    ]);
  }
  return pickWeighted<PricingModel>(rnd, [
    ["on_demand", 60],
    ["spot", 35],
    ["reserved", 5],
  ]);
}

function gpuCode(rnd: () => number, kind: Kind, migCapable: boolean): string {
  const r = rnd();
  if (kind === "training") return r < 0.94 ? "T" : r < 0.97 ? "H" : r < 0.99 ? "E" : "F";
  if (kind === "inference") {
    if (migCapable && r < 0.15) return "M";
    return r < 0.9 ? "I" : r < 0.95 ? "H" : "E";
  }
  return r < 0.5 ? "H" : r < 0.8 ? "E" : "I";
}

export function randomDesign(seed: number, id: number): HostDesign {
  const rnd = mulberry32(hash(seed, id, 0xf1ee7));
  const type = instanceType(pickWeighted(rnd, TYPE_WEIGHTS));
  const team = pickWeighted(rnd, TEAM_WEIGHTS);
  const facts = TEAMS[team] ?? { projects: ["evals"], owners: ["alice"] };
  const project = pick(rnd, facts.projects);
  const kind = pickWeighted<Kind>(rnd, [
    ["training", team === "inference" ? 10 : 55],
    ["inference", team === "inference" ? 80 : 35],
    ["dev", 10],
  ]);
  const model = gpuModel(type.gpuName);
  const migCapable = model.migProfiles !== undefined && model.memory.totalMiB > 80000;
  let profiles = "";
  for (let i = 0; i < type.gpus; i++) profiles += gpuCode(rnd, kind, migCapable);
  const pricingModel = pricing(rnd, type.provider, type.gpus);
  const shortJobs = project === "evals" || kind === "training";
  const design: HostDesign = {
    instanceType: type.instanceType,
    region: pick(rnd, type.regions),
    pricingModel,
    team,
    project,
    owner: pick(rnd, facts.owners),
    profiles,
  };
  if (pricingModel === "on_demand" && shortJobs && rnd() < 0.3) design.interruptible = true;
  if (model.arch === "Volta" || rnd() < 0.15) design.driverVersion = "580.95.05";
  return design;
}
