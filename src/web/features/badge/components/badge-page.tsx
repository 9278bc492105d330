import { useId, useState } from 'react';
import { Link } from 'react-router';
import { type BadgeLanguage, type BadgeSettings, type DomainBadge } from '#contract/badge.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Checkbox } from '../../../components/ui/checkbox';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { track } from '../../../lib/analytics';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast-store';
import { useBadges } from '../api/list-badges';
import { useSaveBadge } from '../api/save-badge';
import { badgeAlt, badgePath, embedCode } from '../embed';

const variantLabels: Record<BadgeSettings['variant'], string> = {
  standard: 'Standard (label and evidence)',
  mini: 'Mini (compact)',
  icon: 'Icon (square)',
};
const styleLabels: Record<BadgeSettings['style'], string> = {
  flat: 'Flat',
  'flat-square': 'Flat square',
  plastic: 'Plastic',
  'for-the-badge': 'Bold capitals',
};
const sizeLabels: Record<BadgeSettings['size'], string> = {
  small: 'Small',
  medium: 'Medium',
  large: 'Large',
};
const orientationLabels: Record<BadgeSettings['orientation'], string> = {
  horizontal: 'Horizontal',
  vertical: 'Vertical (stacked)',
};
const themeLabels: Record<BadgeSettings['theme'], string> = { light: 'Light', dark: 'Dark' };
const languageLabels: Record<BadgeLanguage, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

function Choice<T extends string | number>({
  label,
  value,
  options,
  onChange,
  hint,
}: {
  label: string;
  value: T;
  options: Record<string, string>;
  onChange: (value: T) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={String(value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => {
          const raw = event.target.value;
          onChange((typeof value === 'number' ? Number(raw) : raw) as T);
        }}
      >
        {Object.entries(options).map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </NativeSelect>
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      )}
    </div>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(state) => onChange(state === true)} />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}

async function copy(text: string, title: string, description: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title, description, variant: 'success' });
  } catch {
    toast({
      title: 'Copy failed',
      description: 'Select the text and copy it yourself.',
      variant: 'destructive',
    });
  }
}

/**
 * The badge configurator (spec §2): pick a domain, shape the badge, see the real badge as it will
 * appear, copy the HTML that links it to the public status page, and save the settings (which
 * draw any badge address that leaves an option out).
 */
export function BadgePage() {
  usePageTitle('Badge');
  const badges = useBadges();
  const [domain, setDomain] = useState<string>();
  const list = badges.data ?? [];
  const selected: DomainBadge | undefined = list.find((row) => row.domain === domain) ?? list[0];

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <h1 className="text-3xl font-bold">Badge</h1>
      <p className="mt-2 max-w-2xl text-slate-700">
        Show visitors that your site&apos;s accessibility is monitored. The badge states your latest
        automated scan score and date, updates itself after every scan and links to your public
        status page.
      </p>

      {badges.isPending && <Spinner label="Loading your domains" />}
      {badges.isError && (
        <p role="alert" className="mt-6 text-bad">
          {messageOf(badges.error, 'Your domains could not be loaded.')}
        </p>
      )}
      {badges.data && list.length === 0 && (
        <p className="mt-6 text-slate-700">
          You have no domains yet. Add a domain from your{' '}
          <Link to={paths.dashboard.getHref()} className="text-brand-600 underline">
            dashboard
          </Link>{' '}
          to get its badge.
        </p>
      )}
      {selected && (
        // Each domain starts from its own saved settings.
        <BadgeEditor
          key={selected.domain}
          badge={selected}
          domains={list.map((row) => row.domain)}
          onDomainChange={setDomain}
        />
      )}
    </div>
  );
}

function BadgeEditor({
  badge: selected,
  domains,
  onDomainChange,
}: {
  badge: DomainBadge;
  domains: string[];
  onDomainChange: (domain: string) => void;
}) {
  const save = useSaveBadge();
  const [settings, setSettings] = useState<BadgeSettings>(selected.settings);
  const [lang, setLang] = useState<BadgeLanguage>('en');
  const set =
    <K extends keyof BadgeSettings>(key: K) =>
    (value: BadgeSettings[K]) =>
      setSettings((current) => ({ ...current, [key]: value }));
  const origin = window.location.origin;

  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-2">
      <Card>
        <h2 className="text-xl font-semibold">Settings</h2>
        <form
          className="mt-4 grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              { domain: selected.domain, settings },
              {
                onSuccess: () => {
                  track('badge_configured', {
                    domain: selected.domain,
                    badge_type: settings.variant,
                  });
                  toast({
                    title: 'Badge Saved',
                    description: `Badge settings for ${selected.domain} were saved.`,
                    variant: 'success',
                  });
                },
              },
            );
          }}
        >
          <Choice
            label="Domain"
            value={selected.domain}
            options={Object.fromEntries(domains.map((name) => [name, name]))}
            onChange={onDomainChange}
          />
          <Choice
            label="Badge type"
            value={settings.variant}
            options={variantLabels}
            onChange={set('variant')}
          />
          <Choice
            label="Style"
            value={settings.style}
            options={styleLabels}
            onChange={set('style')}
          />
          <Choice label="Size" value={settings.size} options={sizeLabels} onChange={set('size')} />
          <Choice
            label="Icon size"
            value={settings.iconSize}
            options={{ 16: '16 px', 24: '24 px', 32: '32 px' }}
            onChange={set('iconSize')}
            hint="Used by the icon badge."
          />
          <Choice
            label="Orientation"
            value={settings.orientation}
            options={orientationLabels}
            onChange={set('orientation')}
          />
          <Choice
            label="Colour scheme"
            value={settings.theme}
            options={themeLabels}
            onChange={set('theme')}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Display options</legend>
            <Toggle
              label="Show score"
              checked={settings.showPercentage}
              onChange={set('showPercentage')}
            />
            <Toggle label="Show scan date" checked={settings.showDate} onChange={set('showDate')} />
          </fieldset>
          <Choice
            label="Badge language"
            value={lang}
            options={languageLabels}
            onChange={setLang}
            hint="Written into the embed code; not saved."
          />
          {save.isError && (
            <p role="alert" className="text-bad">
              {messageOf(save.error, 'The badge settings could not be saved.')}
            </p>
          )}
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save badge settings'}
          </Button>
        </form>
      </Card>

      <div className="grid content-start gap-8">
        <Card>
          <h2 className="text-xl font-semibold">Live preview</h2>
          {selected.live ? (
            <div
              className={`mt-4 flex min-h-24 items-center justify-center rounded-md p-6 ${
                settings.theme === 'dark' ? 'bg-slate-800' : 'bg-slate-50'
              }`}
            >
              <img
                src={badgePath(selected.domain, settings, lang)}
                alt={badgeAlt(selected.domain)}
              />
            </div>
          ) : (
            <p className="mt-4 text-slate-700">
              The badge of {selected.domain} goes live once the domain is monitored and its
              ownership is verified. You can prepare its settings now.
            </p>
          )}
        </Card>

        <Card>
          <h2 className="text-xl font-semibold">Embed code</h2>
          <EmbedCode code={embedCode(origin, selected.domain, settings, lang)} />
          <div className="mt-4 flex flex-wrap gap-3">
            <Button
              type="button"
              onClick={() =>
                void copy(
                  embedCode(origin, selected.domain, settings, lang),
                  'Badge Code Copied',
                  'Paste it into your website HTML.',
                )
              }
            >
              Copy badge code
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() =>
                void copy(
                  `${origin}${paths.status.getHref(selected.domain)}`,
                  'Copied!',
                  'The status page link is on your clipboard.',
                )
              }
            >
              Copy status page link
            </Button>
          </div>
        </Card>
      </div>
    </div>
  );
}

function EmbedCode({ code }: { code: string }) {
  const id = useId();
  return (
    <div className="mt-4 grid gap-1.5">
      <Label htmlFor={id}>HTML for your website</Label>
      <textarea
        id={id}
        readOnly
        value={code}
        rows={4}
        className="w-full rounded-md border border-slate-500 bg-slate-50 p-3 font-mono text-sm text-slate-900"
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}
