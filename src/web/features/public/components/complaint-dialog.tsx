import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import { Controller, useForm, type FieldErrors } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { complaintRequiredMessage, SubmitComplaintRequest } from '#contract/complaint.js';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { track, trackFormError } from '../../../lib/analytics';
import { toast } from '../../../lib/toast-store';
import { useSubmitComplaint } from '../api/submit-complaint';

const hostOf = (address: string) => new URL(address).hostname.replace(/^www\./, '');

/**
 * What each empty required field says under itself (issue 27: one message per field, tied to it);
 * the spec's one message for them all stays the toast's, a second channel.
 */
const complaintFieldMessages = {
  email: 'Enter your email address, so the owner of the site can reply.',
  message: 'Write your message: which page, what you tried to do and what got in the way.',
  privacyConsent:
    'Tick the box to agree to the privacy policy; without it we cannot pass on your concern.',
} as const;

/**
 * The form is the request without the domain (the page's own), and consent starts unticked. A
 * page the visitor names must be on this domain (the server checks it too).
 */
function complaintFormSchema(domain: string) {
  const site = domain
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
  const filled = (message: string) => z.string().trim().min(1, message);
  return SubmitComplaintRequest.omit({ domain: true }).extend({
    email: filled(complaintFieldMessages.email).pipe(SubmitComplaintRequest.shape.email),
    message: filled(complaintFieldMessages.message).pipe(SubmitComplaintRequest.shape.message),
    privacyConsent: z.boolean().refine((agreed) => agreed, complaintFieldMessages.privacyConsent),
    pageUrl: SubmitComplaintRequest.shape.pageUrl.refine(
      (address) => address === undefined || hostOf(address) === site,
      `The page must be on ${site}`,
    ),
  });
}
type ComplaintFormInput = z.input<ReturnType<typeof complaintFormSchema>>;
type ComplaintFormOutput = z.output<ReturnType<typeof complaintFormSchema>>;

const emptyForm: ComplaintFormInput = {
  name: '',
  email: '',
  pageUrl: '',
  type: 'complaint',
  priority: 'normal',
  message: '',
  privacyConsent: false,
};

const requiredFields = ['email', 'message', 'privacyConsent'] as const;

/**
 * "Report an Accessibility Issue" on a domain's public status page (spec §2, §4, §5, §8): a
 * dialog that is closed, open, submitting, then closed with the form reset on success. Radix
 * keeps focus inside while it is open, closes on Escape and returns focus to the button.
 */
export function ComplaintDialog({
  domain,
  initiallyOpen = false,
}: {
  domain: string;
  /** Open at once: the visitor pressed the button while this form was still loading. */
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const submit = useSubmitComplaint();
  const schema = useMemo(() => complaintFormSchema(domain), [domain]);
  const form = useForm<ComplaintFormInput, unknown, ComplaintFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: emptyForm,
  });
  const { errors } = form.formState;
  const consentId = useId();

  const onValid = async (input: ComplaintFormOutput) => {
    try {
      const filed = await submit.mutateAsync({ ...input, domain, privacyConsent: true });
      track('feature_usage', {
        feature: 'status_page_complaint',
        domain,
        complaint_type: input.type,
        priority: input.priority,
      });
      toast({
        title: 'Thank you!',
        // Nobody holds the site verified right now: the server says the concern waits (ADR 0007).
        description: filed.waiting
          ? filed.message
          : 'Your concern was submitted and will be reviewed.',
        variant: 'success',
      });
      setOpen(false);
      form.reset(emptyForm);
    } catch {
      toast({
        title: 'Submission failed',
        description: 'Please try again later or contact support.',
        variant: 'destructive',
      });
    }
  };

  const onInvalid = (invalid: FieldErrors<ComplaintFormInput>) => {
    for (const [field, error] of Object.entries(invalid)) {
      if (error?.message) trackFormError('status_page_complaint', field, error.message);
    }
    const missing = requiredFields.some((field) => invalid[field]);
    toast({
      title: missing ? 'Please fill in all required fields' : 'Please check the form',
      description: missing
        ? complaintRequiredMessage
        : (Object.values(invalid).find((error) => error?.message)?.message ?? ''),
      variant: 'destructive',
    });
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>Report an Accessibility Issue</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Report an Accessibility Issue</DialogTitle>
        <DialogDescription>
          Tell the owner of {domain} about a barrier you met, or send a suggestion or question.
          Fields marked required must be filled in.
        </DialogDescription>
        <form
          noValidate
          onSubmit={form.handleSubmit(onValid, onInvalid)}
          className="mt-6 grid gap-4"
        >
          <FormField label="Name (optional)" error={errors.name?.message}>
            {(ids) => <Input {...ids} autoComplete="name" {...form.register('name')} />}
          </FormField>
          <FormField label="Email (required)" error={errors.email?.message}>
            {(ids) => (
              <Input
                {...ids}
                type="email"
                autoComplete="email"
                aria-required="true"
                {...form.register('email')}
              />
            )}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Type" error={errors.type?.message}>
              {(ids) => (
                <NativeSelect {...ids} {...form.register('type')}>
                  <option value="complaint">Complaint</option>
                  <option value="suggestion">Suggestion</option>
                  <option value="question">Question</option>
                </NativeSelect>
              )}
            </FormField>
            <FormField label="Priority" error={errors.priority?.message}>
              {(ids) => (
                <NativeSelect {...ids} {...form.register('priority')}>
                  <option value="normal">Normal</option>
                  <option value="urgent">Urgent</option>
                </NativeSelect>
              )}
            </FormField>
          </div>
          <FormField
            label="Page address (optional)"
            error={errors.pageUrl?.message}
            hint={`The page of ${domain} where you met the problem, such as https://${domain}/contact.`}
          >
            {(ids) => <Input {...ids} type="url" inputMode="url" {...form.register('pageUrl')} />}
          </FormField>
          <FormField
            label="Message (required)"
            error={errors.message?.message}
            hint="Which page, what you tried to do and what got in the way."
          >
            {(ids) => (
              <Textarea {...ids} rows={5} aria-required="true" {...form.register('message')} />
            )}
          </FormField>
          <div className="grid gap-1.5">
            <div className="flex items-start gap-3">
              <Controller
                control={form.control}
                name="privacyConsent"
                render={({ field }) => (
                  <Checkbox
                    id={consentId}
                    ref={field.ref}
                    name={field.name}
                    checked={field.value}
                    onCheckedChange={(checked) => field.onChange(checked === true)}
                    onBlur={field.onBlur}
                    aria-required="true"
                    aria-invalid={!!errors.privacyConsent}
                    aria-describedby={errors.privacyConsent ? `${consentId}-error` : undefined}
                    className="mt-0.5"
                  />
                )}
              />
              <Label htmlFor={consentId} className="font-normal">
                I agree that my name and email are used to handle this concern, as described in the{' '}
                <Link
                  to={paths.privacy.getHref()}
                  target="_blank"
                  rel="noopener"
                  className="font-medium text-brand-700 underline underline-offset-2"
                >
                  privacy policy (opens in a new tab)
                </Link>{' '}
                (required).
              </Label>
            </div>
            {errors.privacyConsent?.message && (
              <p id={`${consentId}-error`} className="text-sm font-medium text-bad">
                {errors.privacyConsent.message}
              </p>
            )}
          </div>
          <Button type="submit" disabled={submit.isPending}>
            {submit.isPending ? 'Submitting…' : 'Submit'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
