import type { EngineId, Impact, Issue, IssueSummary } from '#contract/index.js';

/** An OpenAI-compatible chat-completions endpoint (config AI_BASE_URL, AI_API_KEY, AI_MODEL). */
export interface AiEndpoint {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** What a summary is written from: the scan's own results, in the scanner's shape. */
export interface SummaryInput {
  url: string;
  title: string;
  score: { value: number; label: string };
  summary: IssueSummary;
  engineErrors: Partial<Record<EngineId, string>>;
  issues: readonly Issue[];
}

export interface SummaryOptions {
  /** No endpoint means the summary is written from the findings. */
  endpoint?: AiEndpoint;
  /** How long the model may take before the findings-based summary is used; default 20 s. */
  timeoutMs?: number;
  /** A failed call is reported here (the scan still gets a summary). */
  onError?: (error: unknown) => void;
}

export const automaticLabel = '(Summary written from the findings; no AI service is configured.)';
export const fallbackLabel = '(Summary written from the findings; the AI service did not answer.)';

/**
 * The scan's summary (stored as aiSummary): written by the configured model when there is one,
 * otherwise, or when the model fails or is too slow, written from the findings and labelled so
 * nobody takes it for a model's reading of the page. This is the one place summaries are made.
 */
export async function summarizeScan(
  input: SummaryInput,
  options: SummaryOptions = {},
): Promise<string> {
  if (!options.endpoint) return `${findingsSummary(input)} ${automaticLabel}`;
  try {
    return await askModel(options.endpoint, input, options.timeoutMs ?? 20_000);
  } catch (error) {
    options.onError?.(error);
    return `${findingsSummary(input)} ${fallbackLabel}`;
  }
}

const impactsInOrder: Impact[] = ['critical', 'serious', 'moderate', 'minor'];

/** A deterministic summary: the same findings always give the same text. */
export function findingsSummary(input: SummaryInput): string {
  const { violations, totalViolations, needsReview } = input.summary;
  const counts = impactsInOrder
    .filter((impact) => violations[impact] > 0)
    .map((impact) => `${violations[impact]} ${impact}`);
  const found =
    totalViolations === 0
      ? 'No WCAG A/AA violations were found'
      : `${totalViolations} WCAG A/AA violation${totalViolations === 1 ? '' : 's'} found (${counts.join(', ')})`;
  const review = needsReview > 0 ? `; ${needsReview} more to check by hand` : '';
  const top = topRules(input.issues);
  const worst = top.length > 0 ? ` Most frequent: ${top.join('; ')}.` : '';
  const failed = Object.keys(input.engineErrors);
  const engines = failed.length > 0 ? ` Engines that could not finish: ${failed.join(', ')}.` : '';
  return `${found}${review}. Score ${input.score.value}/100 (${input.score.label}).${worst}${engines}`;
}

/** The three rules with the most violating elements, most severe first on ties. */
function topRules(issues: readonly Issue[]): string[] {
  const byRule = new Map<string, { title: string; count: number; rank: number }>();
  for (const issue of issues) {
    if (issue.kind !== 'violation') continue;
    const entry = byRule.get(issue.ruleKey) ?? {
      title: issue.title,
      count: 0,
      rank: impactsInOrder.indexOf(issue.impact),
    };
    entry.count += 1;
    byRule.set(issue.ruleKey, entry);
  }
  return [...byRule.entries()]
    .sort(([ka, a], [kb, b]) => b.count - a.count || a.rank - b.rank || ka.localeCompare(kb))
    .slice(0, 3)
    .map(([, rule]) => `${rule.title} (${rule.count})`);
}

const systemPrompt =
  'You write short accessibility summaries for website owners. Use only the findings given; do not invent problems or claim legal compliance. Plain text, at most 120 words: overall state, the most important problems to fix first, and that automated testing covers only part of WCAG.';

async function askModel(endpoint: AiEndpoint, input: SummaryInput, timeoutMs: number) {
  const findings = {
    url: input.url,
    title: input.title,
    score: input.score,
    violations: input.summary.violations,
    needsReview: input.summary.needsReview,
    engineErrors: input.engineErrors,
    topIssues: input.issues
      .filter((issue) => issue.kind === 'violation')
      .slice(0, 20)
      .map((issue) => ({
        title: issue.title,
        impact: issue.impact,
        wcag: issue.wcag,
        engines: issue.engines,
        selector: issue.selector,
      })),
  };
  const response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: endpoint.model,
      temperature: 0.2,
      messages: [
        { role: 'system', content: systemPrompt },
        { role: 'user', content: JSON.stringify(findings) },
      ],
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`AI service answered ${response.status}`);
  const body = (await response.json()) as {
    choices?: { message?: { content?: unknown } }[];
  };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) {
    throw new Error('AI service answered without a summary');
  }
  return `${content.trim()} (Written by an AI model, ${endpoint.model}, from the automated findings.)`;
}
