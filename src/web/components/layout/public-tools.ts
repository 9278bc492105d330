import { paths } from '../../lib/paths';

export interface ToolLink {
  label: string;
  href: string;
  /** In the header's first row on wide screens. */
  primary?: boolean;
}

export interface ToolGroup {
  label: string;
  links: ToolLink[];
}

/**
 * Every public tool, grouped as the narrow screens' menu shows them: each screen of the product is
 * one click (or one menu) away instead of reachable only by typing its address. Wide screens show
 * the `primary` links in the header's first row and the others in a second row. The live scan's
 * other looks (Cinematic, Defense Grid...) are demos, not tools: they are offered on the live-scan
 * pages only, so an owner's public status page or dashboard never links to them.
 */
export const publicTools: ToolGroup[] = [
  {
    label: 'Scan',
    links: [
      { label: 'Live scan', href: paths.liveScan.getHref() },
      { label: 'Smart scan', primary: true, href: paths.smartScan.getHref() },
      { label: 'Multi-page audit', primary: true, href: paths.multiPageAudit.getHref() },
      { label: 'Smart discovery', href: paths.smartDiscovery.getHref() },
      { label: 'Raw results', href: paths.rawResults.getHref() },
    ],
  },
  {
    label: 'Publish',
    links: [
      { label: 'Status pages', primary: true, href: paths.statusLookup.getHref() },
      { label: 'VPAT generator', primary: true, href: paths.vpat.getHref() },
    ],
  },
  {
    label: 'Plans',
    links: [{ label: 'Pricing', primary: true, href: paths.pricing.getHref() }],
  },
];

export const primaryTools = publicTools.flatMap((group) => group.links.filter((l) => l.primary));

/** The second row on wide screens: each group's links that are not in the first. */
export const secondaryToolGroups = publicTools
  .map((group) => ({ ...group, links: group.links.filter((link) => !link.primary) }))
  .filter((group) => group.links.length > 0);
