// Who provides, publishes and invoices a host's hours, and the service it is billed under, in
// the names the providers' own FOCUS exports use. Hosts gpufleet cannot place keep their
// provider label as the name; on-premises hosts are their owner's own, so "On-Premises".

export interface ProviderNames {
  providerName: string;
  publisherName: string;
  invoiceIssuerName: string;
  serviceName: string;
  serviceSubcategory: string;
  resourceType: string;
}

const vm = (name: string, serviceName: string): ProviderNames => ({
  providerName: name,
  publisherName: name,
  invoiceIssuerName: name,
  serviceName,
  serviceSubcategory: "Virtual Machines",
  resourceType: "Virtual Machine",
});

const KNOWN: Record<string, ProviderNames> = {
  aws: vm("AWS", "Amazon Elastic Compute Cloud"),
  gcp: vm("Google Cloud", "Compute Engine"),
  azure: vm("Microsoft", "Virtual Machines"),
  alibaba: vm("Alibaba Cloud", "Elastic Compute Service"),
  tencent: vm("Tencent Cloud", "Cloud Virtual Machine"),
  onprem: {
    providerName: "On-Premises",
    publisherName: "On-Premises",
    invoiceIssuerName: "On-Premises",
    serviceName: "On-Premises GPU Servers",
    serviceSubcategory: "Other (Compute)",
    resourceType: "Bare Metal Server",
  },
};

/** Exporter labels spell providers loosely ("AWS", "on-prem", "on_prem"). */
export function providerKey(provider: string): string {
  return provider
    .trim()
    .toLowerCase()
    .replace(/[-_\s]/g, "");
}

export function providerNames(provider: string): ProviderNames {
  const known = KNOWN[providerKey(provider)];
  if (known) return known;
  const name = provider.trim() === "" || providerKey(provider) === "unknown" ? "Unknown" : provider;
  return {
    ...vm(name, "GPU Instances"),
    serviceSubcategory: "Other (Compute)",
  };
}
