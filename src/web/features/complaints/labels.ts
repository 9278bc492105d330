import {
  formatDate as formatVocabularyDate,
  formatDateTime as formatVocabularyDateTime,
} from '#contract/vocabulary.js';
import type { ComplaintPriority, ComplaintStatus, ComplaintType } from '#contract/complaint.js';

/** How the inbox names and colours the complaint vocabularies (spec dashboard-area §3, §9). */

export const statusLabels: Record<ComplaintStatus, string> = {
  new: 'New',
  in_progress: 'In Progress',
  resolved: 'Resolved',
  closed: 'Closed',
};

export const typeLabels: Record<ComplaintType, string> = {
  accessibility: 'Accessibility',
  technical: 'Technical',
  compliance: 'Compliance',
  general: 'General',
};

export const priorityLabels: Record<ComplaintPriority, string> = {
  urgent: 'Urgent',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/**
 * Spec §9: urgent red, high orange, medium yellow, low green. Dark text on a light tint keeps
 * each above 4.5:1, and the word is always shown, so colour is never the only signal.
 */
export const priorityClasses: Record<ComplaintPriority, string> = {
  urgent: 'border-red-300 bg-red-100 text-red-900',
  high: 'border-orange-300 bg-orange-100 text-orange-900',
  medium: 'border-yellow-300 bg-yellow-100 text-yellow-900',
  low: 'border-green-300 bg-green-100 text-green-900',
};

/** Dates as every screen writes them (contract vocabulary). */
export const formatDate = (iso: string) => formatVocabularyDate(iso);
export const formatDateTime = (iso: string) => formatVocabularyDateTime(iso);
