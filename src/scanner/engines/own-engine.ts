import type { Page } from 'puppeteer-core';
import {
  emptyOwnRaw,
  OwnEngineRaw,
  type EngineId,
  type OwnCheckResult,
  type Finding,
  type FindingKind,
  type Impact,
} from '#contract/index.js';
import { sortCriteria, strictestLevel, understandingUrl } from '../analysis/wcag.js';
import type { Engine, EngineContext } from './engine.js';

/** What the product says about one of its own checks, whatever page it fires on. */
export interface OwnCheckDefinition {
  /** The issue's title, e.g. "Keyboard focus is trapped". */
  title: string;
  /** Why it matters and how to fix it, in a sentence or two. */
  description: string;
  /** The criteria the check can fail; a result may name fewer. */
  wcag: readonly string[];
  /** The most a result of this check can be: needs-review checks never report violations. */
  kind: FindingKind;
  impact: Impact;
  /**
   * The shared rule key when the check implements one another engine also reports (an ACT rule
   * id), so their findings on one element merge into one issue; default the check's id.
   */
  ruleKey?: string;
}

/** The ids of Conformly's own engines (their raw output is an OwnEngineRaw). */
export type OwnEngineId = Extract<EngineId, 'keyboard' | 'checks' | 'behaviour'>;

export interface OwnEngineSpec<Id extends OwnEngineId> {
  id: Id;
  /** Every check the engine can report, by check id. */
  checks: Readonly<Record<string, OwnCheckDefinition>>;
  /** Runs the checks on the loaded page; must leave the page as it found it. */
  run(page: Page, context: EngineContext): Promise<Omit<OwnEngineRaw, 'error'>>;
}

/**
 * The version of the own checks, raised when a check changes what it reports (stored with each
 * scan like an engine's version).
 */
export const ownChecksVersion = '1.0.0';

/** The definition of an own check, by id, across every own engine (titles for merged issues). */
const definitions = new Map<string, OwnCheckDefinition>();

export function ownCheckDefinition(check: string): OwnCheckDefinition | undefined {
  return definitions.get(check);
}

/** The rule keys the own engines' findings carry: each check's shared key, or its id. */
const reportedKeys = new Set<string>();

/** Every rule key an own engine built so far can report (the registry builds them all). */
export function ownCheckKeys(): string[] {
  return [...reportedKeys];
}

/**
 * One of Conformly's own engines from its checks and its run: the findings come out of the raw
 * output as the checks state them (criterion, kind, impact), titled by the check's definition.
 */
export function ownEngine<Id extends OwnEngineId>(
  spec: OwnEngineSpec<Id>,
): Engine<Id, OwnEngineRaw> {
  for (const [check, definition] of Object.entries(spec.checks)) {
    definitions.set(check, definition);
    if (definition.ruleKey) definitions.set(definition.ruleKey, definition);
    reportedKeys.add(definition.ruleKey ?? check);
  }
  return {
    id: spec.id,
    version: ownChecksVersion,

    async run(page, context) {
      const result = await spec.run(page, context);
      return { raw: OwnEngineRaw.parse({ ...result, error: null }), version: this.version };
    },

    failed(error) {
      return emptyOwnRaw(error);
    },

    normalize(raw) {
      return raw.results.map((result): Finding => {
        const definition = spec.checks[result.check];
        const wcag = sortCriteria(result.wcag);
        return {
          engine: spec.id,
          ruleId: result.check,
          ruleKey: definition?.ruleKey ?? result.check,
          wcag,
          level: strictestLevel(wcag),
          impact: result.impact,
          // A check never claims more than its definition allows.
          kind:
            definition?.kind === 'violation' ? result.kind : (definition?.kind ?? 'needs-review'),
          selector: result.selector,
          html: result.html,
          message: withState(result),
          helpUrl: wcag[0] ? understandingUrl(wcag[0]) : '',
          extras: {
            ...(definition
              ? { ruleTitle: definition.title, description: definition.description }
              : {}),
            ...(result.details ? { details: result.details } : {}),
          },
        };
      });
    },

    counts(raw) {
      const errors = raw.results.filter((r) => r.kind === 'violation').length;
      const warnings = raw.results.filter((r) => r.kind === 'needs-review').length;
      return { issues: errors, errors, warnings, notices: raw.results.length - errors - warnings };
    },

    coverage() {
      const coverage: Record<string, string[]> = {};
      for (const [check, definition] of Object.entries(spec.checks)) {
        if (definition.kind !== 'violation') continue;
        for (const sc of definition.wcag) (coverage[sc] ??= []).push(check);
      }
      return coverage;
    },
  };
}

/**
 * A result's message, led by the state the page was in when it was found ("After opening
 * 'Menu': …"), so every report that shows the message says where to look.
 */
function withState(result: OwnCheckResult): string {
  const state = result.details?.state;
  if (typeof state !== 'string' || state === '') return result.message;
  return `${state.charAt(0).toUpperCase()}${state.slice(1)}: ${result.message}`;
}

/**
 * One result of a check as its definition states it (criteria, impact, kind); `kind` may be
 * lowered for this element, e.g. to needs-review where context may explain it.
 */
export function checkResult<Id extends string>(
  definitions: Readonly<Record<Id, OwnCheckDefinition>>,
  check: Id,
  element: { selector: string; html: string },
  message: string,
  options: { kind?: FindingKind; details?: Record<string, unknown> } = {},
): OwnCheckResult {
  const definition = definitions[check];
  return {
    check,
    kind: options.kind ?? definition.kind,
    impact: definition.impact,
    wcag: [...definition.wcag],
    selector: element.selector,
    html: element.html,
    message,
    ...(options.details ? { details: options.details } : {}),
  };
}
