import type { OwnCheckResult } from '#contract/index.js';
import type { OwnCheckDefinition } from '../own-engine.js';
import type { BehaviourSession } from './session.js';

/**
 * One topic of the behaviour engine (hover content, disclosures, keys...): its checks, and a run
 * that operates the page within the session's budget and leaves it as it found it.
 */
export interface BehaviourTopic {
  id: string;
  definitions: Readonly<Record<string, OwnCheckDefinition>>;
  run(session: BehaviourSession): Promise<OwnCheckResult[]>;
}

/** The topics in the order they run: each one a module beside this file and one line here. */
export const behaviourTopics: readonly BehaviourTopic[] = [];

/** Every check of the behaviour engine, by check id. */
export const behaviourChecks: Readonly<Record<string, OwnCheckDefinition>> = Object.assign(
  {},
  ...behaviourTopics.map((topic) => topic.definitions),
) as Record<string, OwnCheckDefinition>;
