/** The query keys of domain management; every change invalidates `all`. */
export const domainKeys = {
  all: ['domains'] as const,
  list: () => ['domains', 'list'] as const,
  addOns: (domain: string) => ['domains', 'add-ons', domain] as const,
};
