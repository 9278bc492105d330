import type { AuditSummaryTable as SummaryTable } from '#contract/audit.js';
import { ExportButtons } from './export-buttons';

/** The audit summary table (spec §2 smart scan): overview, one row and one line per page, exports. */
export function AuditSummaryTable({ table, fileStem }: { table: SummaryTable; fileStem: string }) {
  const columns = Object.keys(table.table[0] ?? {});
  return (
    <section aria-labelledby="audit-table-heading" className="grid gap-3">
      <h2 id="audit-table-heading" className="text-2xl font-bold">
        Audit summary table
      </h2>
      <p>{table.overview}</p>
      {columns.length > 0 && (
        // A wide table scrolls by itself; the region makes that scroll reachable by keyboard.
        <div
          role="region"
          aria-labelledby="audit-table-heading"
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-slate-200"
        >
          <table className="min-w-full text-left text-sm">
            <thead className="bg-slate-100">
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className="px-3 py-2 font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.table.map((row, index) => (
                <tr key={index} className="border-t border-slate-200">
                  {columns.map((column) => (
                    <td
                      key={column}
                      className={`px-3 py-2 align-top ${column === 'URL' ? 'break-all' : ''}`}
                    >
                      {row[column] ?? '–'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="text-lg font-semibold">Per page</h3>
      <ul className="grid list-disc gap-1 pl-6 text-sm">
        {table.summary.map((line, index) => (
          <li key={index} className="break-all">
            {line}
          </li>
        ))}
      </ul>
      <ExportButtons
        feature="audit_summary_export"
        label="Summary"
        filename={`${fileStem}-audit-summary`}
        formats={table.formats}
      />
    </section>
  );
}
