import { useEffect, useState, type HTMLAttributes } from 'react';
import type * as GuidanceTexts from '#contract/rule-guidance/index.js';
import type { RuleGuidance } from '#contract/rule-guidance/types.js';

type GuidanceModule = typeof GuidanceTexts;

/**
 * The guidance texts are about as large as the rest of the report screen, and only an opened
 * issue needs them: they load as a chunk of their own, once, on first use.
 */
let loaded: GuidanceModule | null = null;
let loading: Promise<GuidanceModule> | null = null;

export function loadRuleGuidance(): Promise<GuidanceModule> {
  loading ??= import('#contract/rule-guidance/index.js').then((module) => (loaded = module));
  return loading;
}

/**
 * The guidance for a rule key: at once when the texts are loaded, else after they load, which
 * starts when `wanted` (the issue is opened). Undefined for a key with no guidance.
 */
export function useRuleGuidance(ruleKey: string, wanted: boolean): RuleGuidance | undefined {
  const [guidance, setGuidance] = useState(() => loaded?.ruleGuidance(ruleKey));
  useEffect(() => {
    if (!wanted || guidance) return;
    let current = true;
    void loadRuleGuidance().then((module) => {
      if (current) setGuidance(module.ruleGuidance(ruleKey));
    });
    return () => {
      current = false;
    };
  }, [ruleKey, wanted, guidance]);
  return guidance;
}

type HeadingLevel = 3 | 4 | 5;

export function Heading({
  level,
  children,
  ...props
}: { level: HeadingLevel } & HTMLAttributes<HTMLHeadingElement>) {
  if (level === 3) return <h3 {...props}>{children}</h3>;
  if (level === 4) return <h4 {...props}>{children}</h4>;
  return <h5 {...props}>{children}</h5>;
}

/**
 * Conformly's guidance for one rule: what is wrong, who is affected, how to fix it and a correct
 * example, under headings one level below the issue's own.
 */
export function RuleGuidancePanel({
  guidance,
  headingLevel,
}: {
  guidance: RuleGuidance;
  headingLevel: 4 | 5;
}) {
  const subheading = 'mt-3 text-sm font-semibold text-slate-900';
  return (
    <div className="grid gap-1">
      <Heading level={headingLevel} className="text-sm font-semibold text-slate-900">
        What is wrong
      </Heading>
      <p className="text-slate-800">{guidance.what}</p>
      <Heading level={headingLevel} className={subheading}>
        Who is affected
      </Heading>
      <p className="text-slate-800">{guidance.who}</p>
      <Heading level={headingLevel} className={subheading}>
        How to fix it
      </Heading>
      <ol className="ml-5 list-decimal text-slate-800">
        {guidance.fix.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <Heading level={headingLevel} className={subheading}>
        Example of correct code
      </Heading>
      <pre className="overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap text-slate-900">
        <code>{guidance.example}</code>
      </pre>
    </div>
  );
}
