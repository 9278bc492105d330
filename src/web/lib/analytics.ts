/**
 * The tag-manager data layer (spec §1, §3). Tracking never gets in a person's way: a failing push
 * only warns in the console.
 */

export type AnalyticsEvent =
  | 'page_view'
  | 'sign_up'
  | 'login'
  | 'scan_initiated'
  | 'scan_completed'
  | 'subscription_selected'
  | 'purchase'
  | 'vpat_download'
  | 'badge_configured'
  | 'compliance_page_view'
  | 'form_error'
  | 'feature_usage'
  | 'user_properties'
  | 'conversion';

/** Events that also count as a conversion (spec §1). */
const conversions = new Set<AnalyticsEvent>([
  'sign_up',
  'scan_completed',
  'purchase',
  'vpat_download',
  'badge_configured',
]);

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function track(event: AnalyticsEvent, payload: Record<string, unknown> = {}): void {
  try {
    window.dataLayer ??= [];
    window.dataLayer.push({ event, ...payload });
    if (conversions.has(event)) {
      window.dataLayer.push({ event: 'conversion', conversion_type: event, ...payload });
    }
  } catch (error) {
    console.warn('Analytics event was not recorded', event, error);
  }
}

export function trackPageView(path: string, title: string): void {
  track('page_view', { page_path: path, page_title: title });
}

export function trackScanInitiated(url: string, scanType = 'accessibility'): void {
  track('scan_initiated', { scan_url: url, scan_type: scanType });
}

export function trackScanCompleted(
  url: string,
  issuesFound: number,
  accessibilityScore: number | null,
): void {
  track('scan_completed', {
    scan_url: url,
    scan_type: 'accessibility',
    issues_found: issuesFound,
    accessibility_score: accessibilityScore,
  });
}

export function trackFormError(form: string, field: string, message: string): void {
  track('form_error', { form_name: form, field_name: field, error_message: message });
}

export function trackVpatDownload(domain: string, fileFormat = 'pdf'): void {
  track('vpat_download', { domain, file_format: fileFormat });
}
