import { Copy } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast-store';

/** Copies `text`; the spec's 'Copied!' toast says it worked. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className="justify-self-start"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => toast({ title: 'Copied!', description: `${what} copied to the clipboard.` }),
          () =>
            toast({
              title: 'Copy failed',
              description: 'Your browser did not allow copying; select the text and copy it.',
              variant: 'destructive',
            }),
        );
      }}
    >
      <Copy aria-hidden="true" className="h-4 w-4" />
      Copy <span className="sr-only">{what}</span>
    </Button>
  );
}
