import {
  keepInputSchema,
  keepResultSchema,
  plannedActionListSchema,
  scaleSignalListSchema,
  policyInputSchema,
  policyListSchema,
  policySchema,
  policyUpdateSchema,
  savingsSchema,
} from "../zod/schemas/policy.ts";
import {
  releaseInputSchema,
  releaseOptionsSchema,
  releaseResultSchema,
  resizeOptionsSchema,
  resizeResultSchema,
} from "../zod/schemas/release.ts";
import { schemaOf, ok, err, body, type JsonObject } from "../zod/openapi-parts.ts";

// OpenAPI paths of the policies' API (issue 25), from the zod schemas the routes validate with.
// Merged into the document by lib/openapi/openapi.ts.

const idParam = {
  name: "id",
  in: "path",
  required: true,
  description: "policy id",
  schema: { type: "string" },
};
const bad = { "400": err("invalid body (issues name the fields)") };
const media = { "415": err("the body is not application/json") };

export function policyPaths(): JsonObject {
  return {
    "/api/policies": {
      get: { summary: "Idle-release policies (operator)", responses: { "200": ok("PolicyList") } },
      post: {
        summary:
          "Create an idle-release policy (admin). It starts in dry run whatever the body says; audited",
        requestBody: body(policyInputSchema),
        responses: {
          "201": ok("Policy", "created"),
          ...bad,
          "403": err("a team-limited admin may only create policies of their own teams"),
          "409": err("a policy of that name exists"),
          ...media,
        },
      },
    },
    "/api/policies/{id}": {
      get: {
        summary: "One policy",
        parameters: [idParam],
        responses: { "200": ok("Policy"), "404": err("no such policy") },
      },
      patch: {
        summary:
          "Change a policy, including mode (dry_run ↔ active); fields left out keep their value; audited",
        parameters: [idParam],
        requestBody: body(policyUpdateSchema),
        responses: { "200": ok("Policy"), ...bad, "404": err("no such policy"), ...media },
      },
      delete: {
        summary: "Delete a policy and its episodes; audited",
        parameters: [idParam],
        responses: { "204": { description: "deleted" }, "404": err("no such policy") },
      },
    },
    "/api/policies/keep": {
      post: {
        summary:
          "Redeem a keep link from a policy's warning (no sign-in: the signed, single-use token is the credential). The host's stop moves to now + the link's hours; audited",
        security: [],
        requestBody: body(keepInputSchema),
        responses: {
          "200": ok("KeepResult"),
          ...bad,
          "404": err(
            "the link is not valid (used, expired, forged or mistyped: one answer for all)",
          ),
          ...media,
          "429": err("too many attempts from this address"),
        },
      },
    },
    "/api/policies/savings": {
      get: {
        summary:
          "Saved by policies in a UTC month (default: this one): per stopped host, the stopped hours and price × those hours, apart from possible savings",
        parameters: [
          {
            name: "month",
            in: "query",
            required: false,
            schema: { type: "string", pattern: "^\\d{4}-\\d{2}$" },
          },
        ],
        responses: { "200": ok("PolicySavings"), ...bad },
      },
    },
    "/api/policies/hosts/{id}/start": {
      post: {
        summary:
          "Start again a host a policy stopped on the simulated cloud (the demo); the next pass ends its episode; audited",
        parameters: [{ ...idParam, description: "host id" }],
        responses: {
          "200": { description: "started" },
          "404": err("no such host"),
          "409": err("the host was not stopped by a simulated-cloud policy"),
        },
      },
    },
    "/api/policies/actions": {
      get: {
        summary:
          "What the policies would do (dry run) or are doing (active): host, action, when, and the $ a month it saves",
        responses: { "200": ok("PlannedActionList") },
      },
    },
    "/api/recommendations/{id}/release": {
      get: {
        summary:
          "The active idle-release policies that cover an idle-host recommendation's host (operator)",
        parameters: [{ ...idParam, description: "recommendation id" }],
        responses: {
          "200": ok("ReleaseOptions"),
          "404": err("no such recommendation (or outside your teams)"),
          "409": err("not an idle-host recommendation"),
        },
      },
      post: {
        summary:
          "Accept an idle-host recommendation by releasing the host through the chosen active idle-release policy: the owner and holders are warned now (keep links), the policy acts after its grace period unless kept; audited. Accepting again answers the same episode",
        parameters: [{ ...idParam, description: "recommendation id" }],
        requestBody: body(releaseInputSchema),
        responses: {
          "200": ok("ReleaseResult"),
          ...bad,
          "404": err("no such recommendation, host or policy (or outside your teams)"),
          "409": err(
            "not an idle-host recommendation, dismissed, the policy not active or not covering the host, the host kept by its label, not up, or not every GPU idle",
          ),
          ...media,
        },
      },
    },
    "/api/recommendations/{id}/resize": {
      get: {
        summary:
          "The active idle-release policies that cover a right-size recommendation's host: those whose executor can resize, and apart those that cannot (operator)",
        parameters: [{ ...idParam, description: "recommendation id" }],
        responses: {
          "200": ok("ResizeOptions"),
          "404": err("no such recommendation (or outside your teams)"),
          "409": err("not a right-size recommendation"),
        },
      },
      post: {
        summary:
          "Accept a right-size recommendation by resizing the host to its proposed instance type through the chosen active policy: the owner and holders are warned now (from and to types, $ a month saved, keep links), the policy's executor resizes it after the grace period unless kept; audited. Accepting again answers the same episode",
        parameters: [{ ...idParam, description: "recommendation id" }],
        requestBody: body(releaseInputSchema),
        responses: {
          "200": ok("ResizeResult"),
          ...bad,
          "404": err("no such recommendation, host or policy (or outside your teams)"),
          "409": err(
            "not a right-size recommendation, dismissed, no instance types, the policy not active, not covering the host or its executor unable to resize, the host no longer of the recommendation's type, kept by its label or not up",
          ),
          ...media,
        },
      },
    },
    "/api/policies/scale-signals": {
      get: {
        summary:
          "The scale policies' newest signals per pool: scale out or in, the pool's figures, the desired size, and the executor's answer",
        responses: { "200": ok("ScaleSignalList") },
      },
    },
  };
}

export function policySchemas(): JsonObject {
  return {
    KeepResult: schemaOf(keepResultSchema),
    PolicySavings: schemaOf(savingsSchema),
    PolicyList: schemaOf(policyListSchema),
    Policy: schemaOf(policySchema),
    PlannedActionList: schemaOf(plannedActionListSchema),
    ScaleSignalList: schemaOf(scaleSignalListSchema),
    ReleaseOptions: schemaOf(releaseOptionsSchema),
    ReleaseResult: schemaOf(releaseResultSchema),
    ResizeOptions: schemaOf(resizeOptionsSchema),
    ResizeResult: schemaOf(resizeResultSchema),
  };
}
