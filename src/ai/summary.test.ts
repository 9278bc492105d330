import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automaticLabel, fallbackLabel, summarizeScan, type SummaryInput } from './summary.js';

const input: SummaryInput = {
  url: 'https://shop.example/',
  title: 'Shop',
  score: { value: 62, label: 'Fair' },
  summary: {
    violations: { critical: 1, serious: 2, moderate: 0, minor: 0 },
    totalViolations: 3,
    needsReview: 4,
    bestPractice: 0,
    byEngine: { axe: 3, pa11y: 0, ibm: 0 },
    corroborated: 1,
  },
  engineErrors: { ibm: 'timed out' },
  issues: [
    ['image-alt', 'Images need text alternatives', 'critical'],
    ['label', 'Form fields need labels', 'serious'],
    ['label', 'Form fields need labels', 'serious'],
  ].map(([ruleKey, title, impact], i) => ({
    id: String(i),
    ruleKey: ruleKey!,
    title: title!,
    description: '',
    wcag: ['1.1.1'],
    level: 'A' as const,
    impact: impact as 'critical' | 'serious',
    kind: 'violation' as const,
    confidence: 'confirmed' as const,
    selector: `#e${i}`,
    html: '',
    helpUrl: '',
    engines: ['axe' as const],
    rules: {},
    findings: [],
  })),
};

/** A stand-in for an OpenAI-compatible service on loopback; `mode` decides how it answers. */
let mode: 'ok' | 'slow' | 'error' = 'ok';
const seen: { auth?: string; body?: { model: string; messages: { content: string }[] } }[] = [];
const server = createServer((req: IncomingMessage, res) => {
  let text = '';
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    seen.push({ auth: req.headers.authorization, body: JSON.parse(text) });
    if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    if (mode === 'error') return void res.writeHead(500).end('{}');
    const answer = () =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { content: ' Fix the images first. ' } }] }));
    if (mode === 'slow') setTimeout(answer, 2_000).unref();
    else answer();
  });
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('scan summary', () => {
  it('is written from the findings and labelled when no AI service is configured', async () => {
    const text = await summarizeScan(input);
    expect(text).toContain('3 WCAG A/AA violations found (1 critical, 2 serious)');
    expect(text).toContain('4 more to check by hand');
    expect(text).toContain('Form fields need labels (2)');
    expect(text).toContain('Engines that could not finish: ibm');
    expect(text.endsWith(automaticLabel)).toBe(true);
    expect(await summarizeScan(input)).toBe(text);
  });

  it("asks the configured endpoint with the key and model and keeps the model's words", async () => {
    mode = 'ok';
    const text = await summarizeScan(input, {
      endpoint: { baseUrl, apiKey: 'sk-test', model: 'tiny-model' },
    });
    expect(text).toBe(
      'Fix the images first. (Written by an AI model, tiny-model, from the automated findings.)',
    );
    const request = seen.at(-1)!;
    expect(request.auth).toBe('Bearer sk-test');
    expect(request.body!.model).toBe('tiny-model');
    expect(request.body!.messages[1]!.content).toContain('Images need text alternatives');
  });

  it('falls back to the findings when the service fails or is too slow', async () => {
    const errors: unknown[] = [];
    for (const failing of ['error', 'slow'] as const) {
      mode = failing;
      const text = await summarizeScan(input, {
        endpoint: { baseUrl, apiKey: undefined, model: 'tiny-model' },
        timeoutMs: 300,
        onError: (error) => errors.push(error),
      });
      expect(text.endsWith(fallbackLabel)).toBe(true);
    }
    expect(errors).toHaveLength(2);
  });
});
