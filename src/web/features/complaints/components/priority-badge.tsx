import type { ComplaintPriority } from '#contract/complaint.js';
import { cn } from '../../../lib/cn';
import { priorityClasses, priorityLabels } from '../labels';

export function PriorityBadge({ priority }: { priority: ComplaintPriority }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-bold',
        priorityClasses[priority],
      )}
    >
      {priorityLabels[priority]}
      <span className="sr-only"> priority</span>
    </span>
  );
}
