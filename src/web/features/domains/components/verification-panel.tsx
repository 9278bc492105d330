import { BadgeCheck, ShieldQuestion } from 'lucide-react';
import type { Domain, VerificationMethod } from '#contract/domains.js';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useVerifyDomain } from '../api/change-domain';
import { CopyButton } from './copy-button';
import { formatDate } from '../format';

const methodNames: Record<VerificationMethod, string> = {
  dns: 'DNS TXT record',
  meta: 'meta tag',
  file: 'verification file',
};

function Code({ children }: { children: string }) {
  return (
    <code className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900">
      {children}
    </code>
  );
}

/**
 * Ownership verification (beyond the spec): the public status page and badge go live only once
 * the owner proves the site is theirs by one of three ways.
 */
export function VerificationPanel({ domain }: { domain: Domain }) {
  const { verification } = domain;
  const verify = useVerifyDomain();
  if (verification.verified) {
    return (
      <p className="flex items-center gap-2 text-sm font-semibold text-ok">
        <BadgeCheck aria-hidden="true" className="h-5 w-5" />
        Ownership verified
        {verification.method ? ` by ${methodNames[verification.method]}` : ''}
        {verification.verifiedAt ? ` on ${formatDate(verification.verifiedAt)}` : ''}
      </p>
    );
  }

  const check = async () => {
    try {
      const answer = await verify.mutateAsync(domain.domain);
      if (answer.verified) {
        toast({
          title: 'Domain Verified',
          description: `${domain.domain} is proven yours; its status page and badge are live.`,
          variant: 'success',
        });
      } else {
        toast({
          title: 'Verification Failed',
          description: answer.error ?? 'The verification value was not found yet.',
          variant: 'destructive',
        });
      }
    } catch (error) {
      toast({
        title: 'Verification Failed',
        description: messageOf(error, 'The domain could not be checked. Please try again.'),
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="flex items-center gap-2 font-semibold text-warn">
        <ShieldQuestion aria-hidden="true" className="h-5 w-5" />
        Ownership not verified
      </p>
      <p className="mt-1 text-sm text-slate-800">
        Prove that {domain.domain} is yours with any one of these, then press Verify now. Its public
        status page and badge go live once it is verified.
      </p>
      {verification.error && (
        <p className="mt-2 text-sm font-medium text-bad">Last check: {verification.error}</p>
      )}
      <Tabs defaultValue="dns" className="mt-3">
        <TabsList aria-label={`Ways to verify ${domain.domain}`}>
          <TabsTrigger value="dns">DNS TXT</TabsTrigger>
          <TabsTrigger value="meta">Meta tag</TabsTrigger>
          <TabsTrigger value="file">File</TabsTrigger>
        </TabsList>
        <TabsContent value="dns" className="grid gap-2 text-sm">
          <p>Add a TXT record to your DNS:</p>
          <p className="font-semibold">Name</p>
          <Code>{verification.dns.name}</Code>
          <CopyButton text={verification.dns.name} what="TXT record name" />
          <p className="font-semibold">Value</p>
          <Code>{verification.dns.value}</Code>
          <CopyButton text={verification.dns.value} what="TXT record value" />
        </TabsContent>
        <TabsContent value="meta" className="grid gap-2 text-sm">
          <p>
            Put this tag in the <code>&lt;head&gt;</code> of your home page:
          </p>
          <Code>{verification.meta.tag}</Code>
          <CopyButton text={verification.meta.tag} what="meta tag" />
        </TabsContent>
        <TabsContent value="file" className="grid gap-2 text-sm">
          <p>Publish a text file at this address:</p>
          <Code>{verification.file.url}</Code>
          <p className="font-semibold">with exactly this content</p>
          <Code>{verification.file.content}</Code>
          <CopyButton text={verification.file.content} what="file content" />
        </TabsContent>
      </Tabs>
      <Button
        type="button"
        className="mt-3"
        onClick={() => void check()}
        disabled={verify.isPending}
      >
        {verify.isPending ? 'Checking…' : 'Verify now'}
      </Button>
      {verification.checkedAt && (
        <p className="mt-2 text-xs text-slate-700">
          Last checked {formatDate(verification.checkedAt)}
        </p>
      )}
    </div>
  );
}
