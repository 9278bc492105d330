import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { addCustomPage, type CandidatePage } from '../page-selection';

/**
 * Adds a page discovery did not list: a path on the homepage's site ('contact' becomes
 * '/contact') or a full address. An empty entry is ignored (spec §2).
 */
export function CustomPageForm({
  pages,
  homeUrl,
  onChange,
  disabled = false,
}: {
  pages: readonly CandidatePage[];
  homeUrl: string;
  onChange: (pages: CandidatePage[], note: string) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [entry, setEntry] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { list, outcome } = addCustomPage(pages, entry, homeUrl);
    switch (outcome.kind) {
      case 'empty':
        return;
      case 'invalid':
        setProblem('Enter a path such as /contact or a full http(s) address.');
        return;
      case 'added':
        onChange(list, `Added ${outcome.url}.`);
        break;
      case 'already-listed':
        onChange(list, `${outcome.url} is already listed; it is now selected.`);
        break;
    }
    setProblem(null);
    setEntry('');
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-1.5">
      <Label htmlFor={id}>Custom page path or URL</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="text"
          placeholder="/contact"
          value={entry}
          onChange={(event) => setEntry(event.target.value)}
          aria-describedby={problem ? `${id}-problem` : undefined}
          aria-invalid={!!problem}
          disabled={disabled}
        />
        <Button type="submit" variant="outline" className="shrink-0" disabled={disabled}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add Page
        </Button>
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm font-medium text-bad">
          {problem}
        </p>
      )}
    </form>
  );
}
