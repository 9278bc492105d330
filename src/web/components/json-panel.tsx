import { Copy, Download } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { saveText } from '../lib/download';
import { toast } from '../lib/toast-store';
import { Button } from './ui/button';
import { Card } from './ui/card';

export interface JsonPanelProps {
  /** What the JSON is, e.g. 'axe output': names the region, the buttons and the copy toast. */
  name: string;
  value: unknown;
  /** The file name Download JSON saves as. */
  filename: string;
  /** How many items the value holds (violations, issues...), shown above the JSON. */
  items?: number;
}

/**
 * A JSON value pretty-printed in a scrollable view about 500 px high (Expand shows all of it),
 * with Copy and Download JSON. Used by the raw results and raw report pages.
 */
export function JsonPanel({ name, value, filename, items }: JsonPanelProps) {
  const [expanded, setExpanded] = useState(false);
  const viewId = useId();
  const text = JSON.stringify(value ?? null, null, 2);
  const viewRef = useRef<HTMLPreElement>(null);
  const overflows = useOverflow(viewRef, text, expanded);
  const size = `${text.length.toLocaleString('en-US')} characters`;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {items === undefined ? size : `${items} items · ${size}`}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              void navigator.clipboard.writeText(text).then(
                () => toast({ title: 'Copied', description: `${name} copied` }),
                () => toast({ title: 'Copy failed', variant: 'destructive' }),
              )
            }
          >
            <Copy aria-hidden="true" className="h-4 w-4" />
            Copy<span className="sr-only"> {name}</span>
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => saveText(text, filename, 'application/json')}
          >
            <Download aria-hidden="true" className="h-4 w-4" />
            Download JSON<span className="sr-only"> of {name}</span>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={expanded}
            aria-controls={viewId}
            onClick={() => setExpanded((e) => !e)}
          >
            {expanded ? 'Collapse' : 'Expand'}
            <span className="sr-only"> {name}</span>
          </Button>
        </div>
      </div>
      {/* A scrollable view must be reachable by keyboard, so it takes focus when it scrolls. */}
      <pre
        ref={viewRef}
        id={viewId}
        role="region"
        tabIndex={overflows ? 0 : undefined}
        aria-label={`${name} as JSON`}
        className={`mt-3 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${expanded ? '' : 'max-h-[500px]'}`}
      >
        {text}
      </pre>
    </Card>
  );
}

/**
 * Whether the view scrolls: only then does it take focus (a focusable element that neither
 * scrolls nor acts is a stop on the Tab path for nothing).
 */
function useOverflow(ref: RefObject<HTMLElement | null>, text: string, expanded: boolean) {
  const [overflows, setOverflows] = useState(true);
  useLayoutEffect(() => {
    const view = ref.current;
    if (!view) return;
    const measure = () =>
      setOverflows(
        view.scrollHeight > view.clientHeight + 1 || view.scrollWidth > view.clientWidth + 1,
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(view);
    return () => observer.disconnect();
  }, [ref, text, expanded]);
  return overflows;
}
