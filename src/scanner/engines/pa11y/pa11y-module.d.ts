/** pa11y ships no types (@types/pa11y is years behind); only what our engine uses. */
declare module 'pa11y' {
  import type { Browser, Page } from 'puppeteer-core';

  // A type alias, not an interface, so it fits the contract's open record shape.
  type Pa11yIssue = {
    code: string;
    type: string;
    typeCode: number;
    message: string;
    context: string | null;
    selector: string;
    runner: string;
    runnerExtras: Record<string, unknown>;
  };

  interface Pa11yResults {
    documentTitle: string;
    pageUrl: string;
    issues: Pa11yIssue[];
  }

  interface Pa11yOptions {
    browser?: Browser;
    page?: Page;
    ignoreUrl?: boolean;
    runners?: string[];
    standard?: 'WCAG2A' | 'WCAG2AA' | 'WCAG2AAA';
    includeWarnings?: boolean;
    includeNotices?: boolean;
    timeout?: number;
    userAgent?: string;
    viewport?: { width: number; height: number };
  }

  function pa11y(url: string, options?: Pa11yOptions): Promise<Pa11yResults>;
  export default pa11y;
}
