import { FileJson, Upload } from 'lucide-react';
import { useRef, useState, type DragEvent } from 'react';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { trackVpatDownload } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useGenerateVpat } from '../api/generate-vpat';
import { useTestOpenAcr } from '../api/test-openacr';
import { kilobytes, uploadProblem } from '../upload-rules';

type Status =
  { state: 'idle' } | { state: 'uploading' | 'processing' | 'success' | 'error'; message: string };

const banner: Record<Status['state'], string> = {
  idle: 'border-slate-300 bg-slate-50 text-slate-900',
  uploading: 'border-brand-600 bg-brand-50 text-brand-800',
  processing: 'border-brand-600 bg-brand-50 text-brand-800',
  success: 'border-ok bg-emerald-50 text-emerald-900',
  error: 'border-bad bg-red-50 text-red-900',
};

/** The VPAT generator (spec §2 /vpat): an OpenACR JSON file in, a VPAT 2.4 Word file out. */
export function VpatPage() {
  usePageTitle('VPAT generator');
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const [dragging, setDragging] = useState(false);
  const check = useTestOpenAcr();
  const generate = useGenerateVpat();
  const busy = status.state === 'uploading' || status.state === 'processing';

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const problem = uploadProblem(chosen);
    if (problem) {
      toast({ ...problem, variant: 'destructive' });
      return;
    }
    setFile(chosen);
    setStatus({ state: 'idle' });
  };

  const reset = () => {
    setFile(undefined);
    setStatus({ state: 'idle' });
    if (input.current) input.current.value = '';
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const runCheck = async () => {
    if (!file) return;
    setStatus({ state: 'uploading', message: 'Testing OpenACR validation…' });
    try {
      const { data } = await check.mutateAsync(file);
      setStatus({
        state: 'success',
        message: `Valid OpenACR: “${data.title}”, ${data.chaptersCount} chapters, ${data.totalCriteria} criteria.`,
      });
    } catch (error) {
      const message = messageOf(error, 'Unknown error occurred');
      setStatus({ state: 'error', message });
      toast({ title: 'Validation failed', description: message, variant: 'destructive' });
    }
  };

  const runGenerate = async () => {
    if (!file) return;
    setStatus({ state: 'uploading', message: 'Uploading the OpenACR file…' });
    try {
      const pending = generate.mutateAsync(file);
      setStatus({ state: 'processing', message: 'Generating the VPAT report…' });
      const { filename } = await pending;
      trackVpatDownload(file.name.replace(/\.json$/i, ''), 'docx');
      setStatus({
        state: 'success',
        message: `VPAT report generated successfully! Downloaded ${filename}.`,
      });
      toast({
        title: 'Success',
        description: 'VPAT report has been generated and downloaded',
        variant: 'success',
      });
    } catch (error) {
      const message = messageOf(error, 'Failed to generate VPAT report');
      setStatus({ state: 'error', message });
      toast({ title: 'Generation failed', description: message, variant: 'destructive' });
    }
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold">VPAT generator</h1>
      <p className="mt-2 text-slate-700">
        Turn an OpenACR file into a VPAT 2.4 accessibility conformance report in Word.
      </p>
      <Card className="mt-8">
        {/* Dropping is a mouse shortcut; the button inside is the keyboard way to the same file. */}
        {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed p-8 text-center ${dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-400'}`}
        >
          <Upload aria-hidden="true" className="h-10 w-10 text-brand-600" />
          <p className="font-semibold">Drop an OpenACR .json file here</p>
          <input
            ref={input}
            id="openacr-file"
            type="file"
            accept=".json,application/json"
            aria-label="OpenACR JSON file"
            // The button below opens this picker; one tab stop for one action.
            tabIndex={-1}
            className="sr-only"
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <Button
            type="button"
            variant="outline"
            disabled={busy}
            onClick={() => (file ? reset() : input.current?.click())}
          >
            {file ? 'Choose Different File' : 'Click to browse'}
          </Button>
          {file && (
            <p className="flex items-center gap-2 text-sm">
              <FileJson aria-hidden="true" className="h-4 w-4" />
              <span className="font-semibold break-all">{file.name}</span>
              <span className="text-slate-700">{kilobytes(file.size)}</span>
            </p>
          )}
        </div>
        <p role="status" className={`mt-4 rounded-md border p-3 text-sm ${banner[status.state]}`}>
          {status.state === 'idle'
            ? file
              ? 'Ready: test the file or generate the report.'
              : 'No file chosen yet.'
            : status.message}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <Button variant="outline" disabled={!file || busy} onClick={() => void runCheck()}>
            Test OpenACR Validation
          </Button>
          <Button disabled={!file || busy} onClick={() => void runGenerate()}>
            Generate VPAT Report
          </Button>
        </div>
        <ul className="mt-6 grid gap-1 text-sm text-slate-700">
          <li>Supported format: OpenACR JSON</li>
          <li>Output: VPAT 2.4 (.docx)</li>
          <li>Processing usually takes under 30 seconds</li>
        </ul>
      </Card>
      <section aria-labelledby="about-openacr" className="mt-10">
        <h2 id="about-openacr" className="text-2xl font-bold">
          About OpenACR &amp; VPAT
        </h2>
        <p className="mt-3 text-slate-800">
          A VPAT (Voluntary Product Accessibility Template) is the standard form for reporting how a
          product conforms to WCAG, Section 508 and EN 301 549; the filled form is an Accessibility
          Conformance Report. OpenACR is the machine-readable version of that report, kept by the
          U.S. General Services Administration, so a report can be written, checked and versioned as
          data and turned into a document when needed.
        </p>
      </section>
    </div>
  );
}
