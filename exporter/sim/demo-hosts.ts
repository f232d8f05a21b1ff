// The first 24 hosts of every simulated fleet, chosen by hand so the demo shows each case:
// three clouds plus Alibaba (priced in CNY, cn-shanghai) and Tencent Cloud (ap-guangzhou), an
// unpriced on-prem DGX, all pricing models, every profile.
import type { PricingModel, WorkloadProfile } from "./types.ts";

export interface HostDesign {
  instanceType: string;
  region: string;
  pricingModel: PricingModel;
  team: string;
  project: string;
  owner: string;
  /** per GPU, one letter each, repeated to fill the host (see PROFILE_CODES) */
  profiles: string;
  interruptible?: boolean;
  /** availability zone, reported as gpu_host_info's zone (the demo's AWS spot hosts: their spot
   * hours take the zone's market price from the demo's spot price history, lib/demo/spot-history.ts) */
  zone?: string;
  /** extra gpu_host_info labels (the demo's idle-release policy picks its host by one) */
  labels?: Readonly<Record<string, string>>;
  driverVersion?: string;
}

export const PROFILE_CODES: Readonly<Record<string, WorkloadProfile>> = {
  T: "training",
  I: "inference",
  H: "held_idle",
  E: "empty_idle",
  M: "mig",
  F: "faulty",
  S: "stuck_loop",
};

const d = (
  instanceType: string,
  region: string,
  pricingModel: PricingModel,
  team: string,
  project: string,
  owner: string,
  profiles: string,
  extra: Partial<HostDesign> = {},
): HostDesign => ({ instanceType, region, pricingModel, team, project, owner, profiles, ...extra });

export const DEMO_HOSTS: readonly HostDesign[] = [
  d("p4d.24xlarge", "us-east-1", "reserved", "research", "llm-pretrain", "alice", "TTTTTTTT"),
  d("p5.48xlarge", "us-east-1", "reserved", "research", "llm-pretrain", "alice", "TTTTTTTH"),
  d("p5.48xlarge", "us-west-2", "on_demand", "research", "evals", "bob", "TTTTEEEE"),
  d("p5en.48xlarge", "us-east-1", "reserved", "research", "llm-pretrain", "alice", "TTTFTTTT"),
  d("g5.xlarge", "us-east-1", "on_demand", "inference", "chat-serving", "carol", "I"),
  d("g5.xlarge", "us-east-1", "spot", "inference", "chat-serving", "carol", "I", {
    zone: "us-east-1b",
  }),
  d("g4dn.xlarge", "eu-west-1", "on_demand", "vision", "ocr", "ivan", "I"),
  d("g4dn.xlarge", "us-west-2", "on_demand", "data-science", "recsys", "grace", "H"),
  d("g6.xlarge", "us-east-1", "spot", "inference", "embeddings", "dave", "I", {
    zone: "us-east-1d",
  }),
  // Volta left the 590 branch: a V100 box stays on 580
  // and it sits empty: the demo's active idle-release policy stops it (lib/demo/policies.ts)
  d("p3.2xlarge", "us-west-2", "on_demand", "data-science", "recsys", "heidi", "E", {
    driverVersion: "580.95.05",
    labels: { idle_release: "demo" },
  }),
  d("p4d.24xlarge", "us-west-2", "on_demand", "research", "evals", "bob", "TTTTTTTT", {
    interruptible: true,
  }),
  d("a3-highgpu-8g", "us-central1", "on_demand", "research", "llm-pretrain", "alice", "TTTTTTTT"),
  d("a2-ultragpu-1g", "europe-west4", "on_demand", "inference", "embeddings", "dave", "M"),
  // busy but inefficient: a busy-wait kernel on one GPU, and (host 22) a whole hung 8-GPU job
  d("a2-highgpu-1g", "us-central1", "on_demand", "research", "evals", "bob", "S", {
    interruptible: true,
  }),
  d("g2-standard-4", "us-central1", "spot", "inference", "chat-serving", "carol", "I"),
  // Tencent Cloud GN7 (T4), international-site USD price (it replaced a second L4 inference box)
  d("GN7.2XLARGE32", "ap-guangzhou", "on_demand", "vision", "ocr", "judy", "I"),
  d("Standard_ND96asr_v4", "eastus", "reserved", "vision", "ocr", "judy", "TTTTTTHH", {
    driverVersion: "580.95.05",
  }),
  d("Standard_NC4as_T4_v3", "westeurope", "on_demand", "vision", "ocr", "ivan", "I"),
  d("Standard_NC4as_T4_v3", "eastus", "spot", "platform", "evals", "erin", "E"),
  d("ecs.gn6i-c4g1.xlarge", "cn-shanghai", "on_demand", "inference", "chat-serving", "dave", "I", {
    driverVersion: "570.172.08",
  }),
  d("dgx-a100", "dc1", "reserved", "platform", "llm-pretrain", "frank", "MMTTTTHE"),
  d("p5.48xlarge", "us-east-1", "on_demand", "platform", "chat-serving", "erin", "MMIIIIII"),
  d("a3-highgpu-8g", "europe-west4", "spot", "data-science", "recsys", "grace", "SSSSSSSS"),
  d(
    "Standard_ND96asr_v4",
    "westeurope",
    "on_demand",
    "data-science",
    "embeddings",
    "heidi",
    "IIIIIIEE",
  ),
];

/** team → the projects it runs and the people who own its hosts */
export const TEAMS: Readonly<Record<string, { projects: string[]; owners: string[] }>> = {
  research: { projects: ["llm-pretrain", "evals"], owners: ["alice", "bob"] },
  inference: { projects: ["chat-serving", "embeddings"], owners: ["carol", "dave"] },
  platform: { projects: ["chat-serving", "evals", "llm-pretrain"], owners: ["erin", "frank"] },
  "data-science": { projects: ["recsys", "embeddings"], owners: ["grace", "heidi"] },
  vision: { projects: ["ocr"], owners: ["ivan", "judy"] },
};
