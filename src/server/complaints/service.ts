import { randomUUID } from 'node:crypto';
import type {
  ComplaintFormPriority,
  ComplaintFormType,
  SubmitComplaintRequest,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import type { ComplaintEntry, complaintPriorities, complaintTypes } from './repo.js';
import type { Mailer } from '#email/mailer.js';
import * as domains from '../domains/service.js';
import { NotFoundError } from '../http-errors.js';
import { newConcernEmail } from '#email/concern-messages.js';
import * as repo from './repo.js';

/**
 * The complaint channel of the public status page (spec public-area §2, §3, §7): a visitor's
 * concern about a monitored domain is filed for its owner's dashboard and the owner is e-mailed.
 * Only for a domain whose public pages are live (monitored and verified, ADR 0007): a visitor's
 * name, address and message go to the owner, so the owner must have proved the site is theirs.
 */

export interface ComplaintServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** Where the web app is reached, for the dashboard link in the owner's e-mail. */
  publicUrl: string;
}

/** The dashboard sorts by the kind of problem; a suggestion or question is general business. */
const filedType: Record<ComplaintFormType, (typeof complaintTypes)[number]> = {
  complaint: 'accessibility',
  suggestion: 'general',
  question: 'general',
};

/** The visitor's own word for what they sent stays in the subject. */
const subjectOf: Record<ComplaintFormType, string> = {
  complaint: 'Complaint from the public status page',
  suggestion: 'Suggestion from the public status page',
  question: 'Question from the public status page',
};

const filedPriority: Record<ComplaintFormPriority, (typeof complaintPriorities)[number]> = {
  normal: 'medium',
  urgent: 'urgent',
};

export const complaintsPath = '/app/dashboard/complaints';

export async function submitComplaint(
  deps: ComplaintServiceDeps,
  input: SubmitComplaintRequest,
): Promise<{ id: string }> {
  const domain = domains.normalizeDomain(input.domain);
  const monitoring = await domains.findPublished(deps.db, domain);
  if (!monitoring) {
    throw new NotFoundError('Domain Not Found: no compliance monitoring found for this domain.');
  }

  const submitterName = input.name?.trim() || null;
  const now = new Date();
  const firstEntry: ComplaintEntry = {
    id: randomUUID(),
    author: submitterName ?? input.email,
    message: input.message,
    isInternal: false,
    timestamp: now.toISOString(),
  };
  const { id } = await repo.insertComplaint(deps.db, {
    domain,
    type: filedType[input.type],
    status: 'new',
    subject: subjectOf[input.type],
    message: input.message,
    submitterEmail: input.email,
    submitterName,
    priority: filedPriority[input.priority],
    conversation: [firstEntry],
    createdAt: now,
    updatedAt: now,
  });

  deps.mailer.send(
    newConcernEmail({
      to: monitoring.ownerEmail,
      domain,
      type: input.type,
      priority: input.priority,
      message: input.message,
      submitterEmail: input.email,
      submitterName,
      complaintsUrl: new URL(complaintsPath, deps.publicUrl).href,
    }),
  );
  return { id };
}
