import { Download } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { track } from '../../../lib/analytics';
import { saveText } from '../../../lib/download';

/** The formats a report made in the browser comes in, in the order their buttons show. */
const kinds = {
  csv: { name: 'CSV', extension: 'csv', type: 'text/csv' },
  markdown: { name: 'Markdown', extension: 'md', type: 'text/markdown' },
  html: { name: 'HTML', extension: 'html', type: 'text/html' },
} as const;

type ExportFormat = keyof typeof kinds;

/**
 * A download button per format of one report ('Summary (CSV)'), saved as `<filename>.<extension>`
 * and counted in analytics under `feature` with the format.
 */
export function ExportButtons({
  feature,
  label,
  filename,
  formats,
}: {
  feature: string;
  label: string;
  filename: string;
  formats: Partial<Record<ExportFormat, string>>;
}) {
  const available = (Object.keys(kinds) as ExportFormat[]).filter(
    (format) => formats[format] !== undefined,
  );
  return (
    <div className="flex flex-wrap gap-2">
      {available.map((format) => {
        const kind = kinds[format];
        return (
          <Button
            key={format}
            type="button"
            variant="outline"
            onClick={() => {
              track('feature_usage', { feature, format });
              saveText(formats[format]!, `${filename}.${kind.extension}`, kind.type);
            }}
          >
            <Download aria-hidden="true" className="h-4 w-4" />
            {label} ({kind.name})
          </Button>
        );
      })}
    </div>
  );
}
