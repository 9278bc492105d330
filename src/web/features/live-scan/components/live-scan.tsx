import { Play } from 'lucide-react';
import { useState } from 'react';
import { usePageTitle } from '../../../lib/page-title';
import { UrlScanForm } from '../../../components/url-scan-form';
import { cn } from '../../../lib/cn';
import { useLiveScan } from '../hooks/use-live-scan';
import { liveScanThemes, type LiveScanThemeId } from '../themes';
import { ProgressFailure, ScanAborted, ScanFailed, TerminalErrorBox } from './scan-outcome';
import { ScanProgressPanel } from './scan-progress-panel';
import { ScanResultsView } from './scan-results';
import { ThemeLinks } from './theme-links';

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
        <ThemeLinks theme={theme} />

        <UrlScanForm
          id="live-scan-url"
          label="Website URL"
          placeholder="example.com"
          value={url}
          onValueChange={setUrl}
          onSubmit={(target) => void scan.start(target)}
          busy={busy}
          lockField="disabled"
          submitContent={
            <>
              <Play aria-hidden="true" className="h-4 w-4" />
              {busy ? 'Scanning…' : 'Start Scan'}
            </>
          }
          look={{
            form: cn('mt-8', look.panel),
            label: look.label,
            input: cn(look.input, look.focus),
            button: cn(look.primary, look.focus),
          }}
        />

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
