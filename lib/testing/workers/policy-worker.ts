// A second app process for the policies' act-once test: its own Db client on the shared store,
// running the policies job (AWS executor against the test's local EC2 endpoint) on each message.
// Started with `fork(…, [dbUrl, ec2Url, hookUrl], { execArgv: ["--conditions=react-server",
// "--import", "tsx"] })`.
import "../no-egress.ts";
import { createDb } from "../../db.ts";
import { awsEc2Executor } from "../../policies/executors/aws-ec2.ts";
import { runPolicyJob } from "../../policies/job.ts";
import { postJson } from "../../notify/send.ts";
import { scriptedMetrics } from "../scripted-metrics.ts";

const [url, ec2Url] = process.argv.slice(2);
if (!url || !ec2Url || !process.send) throw new Error("usage: fork policy-worker.ts <db> <ec2>");
const db = createDb(url);
const T0 = Number(process.env.POLICY_T0);
const metrics = scriptedMetrics(
  () => db.gpu.findMany({ select: { hostId: true, uuid: true } }),
  (_h, _u, t) => (t >= T0 ? 0 : 0.9),
);

process.on("message", (m: { at: string } | "exit") => {
  if (m === "exit") {
    void db.$disconnect().then(() => process.exit(0));
    return;
  }
  void runPolicyJob(
    { db, now: new Date(m.at), metrics },
    {
      executorFor: () =>
        awsEc2Executor({
          endpoint: ec2Url,
          credentials: { accessKeyId: "AKIDWORKER", secretAccessKey: "worker-secret" },
        }),
      warn: { send: postJson, allowPrivate: async () => true, publicUrl: "http://gpufleet.test" },
    },
  ).then(
    (r) => process.send?.({ ok: true, result: r }),
    (e: unknown) => process.send?.({ ok: false, error: (e as Error).message }),
  );
});
process.send({ ready: true });
