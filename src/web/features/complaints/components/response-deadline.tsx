import { AlarmClock, CheckCircle2 } from 'lucide-react';
import { responseBusinessDays, type Complaint } from '#contract/complaint.js';
import { formatDate } from '../labels';

/**
 * The answer a complaint is owed by (beyond the spec: responseBusinessDays per priority). Overdue
 * is said in words and with an icon, not by colour alone.
 */
export function ResponseDeadline({ complaint }: { complaint: Complaint }) {
  const days = responseBusinessDays[complaint.priority];
  const window = `${days} business day${days === 1 ? '' : 's'} for ${complaint.priority} priority`;
  if (complaint.answeredAt || complaint.status === 'resolved' || complaint.status === 'closed') {
    return (
      <span className="inline-flex items-center gap-1 text-sm text-slate-700">
        <CheckCircle2 aria-hidden="true" className="h-4 w-4 text-green-700" />
        {complaint.answeredAt ? `Answered ${formatDate(complaint.answeredAt)}` : 'Settled'}
      </span>
    );
  }
  if (complaint.overdue) {
    return (
      <span
        className="inline-flex items-center gap-1 text-sm font-bold text-bad"
        title={`Answer within ${window}`}
      >
        <AlarmClock aria-hidden="true" className="h-4 w-4" />
        Overdue since {formatDate(complaint.respondBy)}
      </span>
    );
  }
  return (
    <span className="text-sm text-slate-700" title={`Answer within ${window}`}>
      Answer by {formatDate(complaint.respondBy)}
    </span>
  );
}
