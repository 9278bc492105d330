import { Play } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { usePageTitle } from '../../../lib/page-title';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/cn';
import { useLiveScan } from '../hooks/use-live-scan';
import { liveScanThemes, type LiveScanThemeId } from '../themes';
import { ProgressFailure, ScanAborted, ScanFailed, TerminalErrorBox } from './scan-outcome';
import { ScanProgressPanel } from './scan-progress-panel';
import { ScanResultsView } from './scan-results';

/**
 * The live-scan demo pages of spec §2 (/live-scan, /real-scan, /cinematic-scan, /premium-scan,
 * /modern-scan): one real scan followed through the real-live-scan API, shown in one of five
 * themes. The spec's single global scan becomes the visitor's own scan, named by its id.
 */
export function LiveScan({ theme: themeId }: { theme: LiveScanThemeId }) {
  const theme = liveScanThemes[themeId];
  const { look } = theme;
  usePageTitle(theme.pageTitle);
  const [url, setUrl] = useState('');
  const scan = useLiveScan();
  const busy = scan.phase === 'starting' || scan.phase === 'running';

  // Spec: Reset returns to no scan, so the form is empty again too.
  const reset = () => {
    setUrl('');
    void scan.reset();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim() || busy) return;
    void scan.start(url);
  };

  // The band reaches down to the footer (cancelling its top margin), so dark themes have no
  // white strip above it.
  return (
    <div className={cn('-mb-16 min-h-[70vh] pb-8', look.page)}>
      <div className="mx-auto max-w-5xl px-4 py-12">
        <p className={cn('text-sm font-semibold tracking-wide uppercase', look.eyebrow)}>
          {theme.eyebrow}
        </p>
        <h1 className={cn('mt-1 text-3xl font-bold sm:text-4xl', look.title)}>{theme.title}</h1>
        <p className={cn('mt-3 max-w-2xl', look.muted)}>{theme.intro}</p>

        <form
          onSubmit={onSubmit}
          className={cn('mt-8 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end', look.panel)}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="live-scan-url" className={look.label}>
              Website URL
            </Label>
            <Input
              id="live-scan-url"
              type="text"
              inputMode="url"
              autoComplete="url"
              placeholder="example.com"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              disabled={busy}
              className={cn(look.input, look.focus)}
            />
          </div>
          <Button
            type="submit"
            disabled={!url.trim() || busy}
            className={cn(look.primary, look.focus)}
          >
            <Play aria-hidden="true" className="h-4 w-4" />
            {busy ? 'Scanning…' : 'Start Scan'}
          </Button>
        </form>

        {scan.noScanRunning && (
          <p role="status" className={cn('mt-4', look.muted)}>
            No scan is running. Enter an address to start one.
          </p>
        )}
        {theme.terminalStages && scan.startFailure && scan.phase === 'idle' && (
          <TerminalErrorBox failure={scan.startFailure} theme={theme} />
        )}
        {scan.scanId && scan.phase !== 'idle' && (
          <ScanProgressPanel scan={scan} progress={scan.progress} theme={theme} onReset={reset} />
        )}
        {scan.phase === 'failed' && scan.progressFailure && (
          <ProgressFailure
            failure={scan.progressFailure}
            theme={theme}
            onRetry={() => void scan.retry()}
          />
        )}
        {scan.phase === 'error' && scan.progress && (
          <ScanFailed progress={scan.progress} theme={theme} onRetry={() => void scan.retry()} />
        )}
        {scan.phase === 'aborted' && <ScanAborted scan={scan} theme={theme} />}
        {scan.phase === 'complete' && scan.progress && scan.scanId && (
          <ScanResultsView
            scanId={scan.scanId}
            progress={scan.progress}
            results={scan.results}
            resultsError={scan.resultsError}
            theme={theme}
          />
        )}
      </div>
    </div>
  );
}
