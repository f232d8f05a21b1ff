import { expect, it, vi } from "vitest";

// Set before the guard loads (vi.hoisted runs above the imports): the variables that would point
// a cloud SDK's credential chain at a real identity endpoint or real keys.
const AZURE = vi.hoisted(() => {
  const vars = {
    AZURE_CLIENT_ID: "00000000-0000-0000-0000-000000000001",
    AZURE_CLIENT_SECRET: "secret",
    AZURE_TENANT_ID: "00000000-0000-0000-0000-000000000002",
    AZURE_FEDERATED_TOKEN_FILE: "/var/run/secrets/azure/tokens/azure-identity-token",
    AZURE_SUBSCRIPTION_ID: "00000000-0000-0000-0000-000000000003",
    IDENTITY_ENDPOINT: "http://169.254.169.254/msi/token",
    IDENTITY_HEADER: "h",
    MSI_ENDPOINT: "http://169.254.169.254/metadata/identity/oauth2/token",
    MSI_SECRET: "s",
    IMDS_ENDPOINT: "http://169.254.169.254",
  };
  Object.assign(process.env, vars);
  return Object.keys(vars);
});

import "./no-egress.ts";

it("clears the Azure credential chain's variables before any test builds a client", () => {
  expect(AZURE.filter((k) => process.env[k] !== undefined)).toEqual([]);
});
