import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  maxMonitorExcludes,
  maxPinnedUrlLength,
  type MonitoringSettings,
} from '#contract/site-monitoring.js';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useUpdateMonitoring } from '../../../api/domains/site-audits';

/** One entry per line; blank lines dropped. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const SettingsForm = z.object({
  startUrl: z.string().trim().max(maxPinnedUrlLength, 'The start address is too long'),
  pins: z.string(),
  excludes: z
    .string()
    .refine(
      (text) => lines(text).length <= maxMonitorExcludes,
      `At most ${maxMonitorExcludes} patterns`,
    ),
});
type SettingsForm = z.infer<typeof SettingsForm>;

/** The server names the field it refused ("pins[1]: …"); the message goes under that field. */
function fieldOf(message: string): keyof SettingsForm | undefined {
  if (message.startsWith('startUrl')) return 'startUrl';
  if (message.startsWith('pins')) return 'pins';
  if (message.startsWith('excludes')) return 'excludes';
  return undefined;
}

/** Where the domain's site audits start, the pages they always include and what they skip. */
export function MonitoringSettingsForm({
  domain,
  settings,
}: {
  domain: string;
  settings: MonitoringSettings;
}) {
  const update = useUpdateMonitoring(domain);
  const form = useForm<SettingsForm>({
    resolver: zodResolver(SettingsForm),
    defaultValues: {
      startUrl: settings.startUrl ?? '',
      pins: settings.pins.join('\n'),
      excludes: settings.excludes.join('\n'),
    },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const saved = await update.mutateAsync({
        startUrl: input.startUrl === '' ? null : input.startUrl,
        pins: lines(input.pins),
        excludes: lines(input.excludes),
      });
      form.reset({
        startUrl: saved.startUrl ?? '',
        pins: saved.pins.join('\n'),
        excludes: saved.excludes.join('\n'),
      });
      toast({ title: 'Monitoring settings saved', variant: 'success' });
    } catch (error) {
      const message = messageOf(error, 'The settings could not be saved.');
      const field = fieldOf(message);
      if (field) form.setError(field, { message });
      else toast({ title: 'Settings not saved', description: message, variant: 'destructive' });
    }
  });
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-4 sm:max-w-2xl">
      <FormField
        label="Start address"
        error={errors.startUrl?.message}
        hint={`Where each audit starts finding pages. Empty: ${settings.defaultStartUrl}`}
      >
        {(ids) => (
          <Input
            {...ids}
            type="url"
            inputMode="url"
            placeholder={settings.defaultStartUrl}
            {...form.register('startUrl')}
          />
        )}
      </FormField>
      <FormField
        label="Pinned pages"
        error={errors.pins?.message}
        hint={`One address per line. Every audit includes them, within the budget of ${settings.pageBudget} pages.`}
      >
        {(ids) => <Textarea {...ids} spellCheck={false} {...form.register('pins')} />}
      </FormField>
      <FormField
        label="Excluded patterns"
        error={errors.excludes?.message}
        hint="One regular expression per line, matched against each address found (as pa11y-ci's --sitemap-exclude), e.g. \.pdf$ or /search\?"
      >
        {(ids) => <Textarea {...ids} spellCheck={false} {...form.register('excludes')} />}
      </FormField>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save monitoring settings'}
        </Button>
      </div>
    </form>
  );
}
