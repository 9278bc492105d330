import { Button } from '../../../components/ui/button';

/** The selection's count, announced politely, with select-all and clear controls. */
export function SelectionBar({
  selected,
  onSelectAll,
  disabled = false,
}: {
  selected: number;
  onSelectAll: (selected: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <p role="status" className="mr-auto text-sm font-semibold">
        {selected} {selected === 1 ? 'page' : 'pages'} selected
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={disabled}
        onClick={() => onSelectAll(true)}
      >
        Select all
      </Button>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={disabled}
        onClick={() => onSelectAll(false)}
      >
        Clear selection
      </Button>
    </div>
  );
}
