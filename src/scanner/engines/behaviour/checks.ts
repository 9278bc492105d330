import type { OwnCheckResult } from '#contract/index.js';
import type { OwnCheckDefinition } from '../own-engine.js';
import * as auth from './auth.js';
import * as contextChange from './context-change.js';
import * as disclosure from './disclosure.js';
import * as hover from './hover.js';
import * as keys from './keys.js';
import * as pointer from './pointer.js';
import type { BehaviourSession } from './session.js';
import * as status from './status.js';

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
export const behaviourTopics: readonly BehaviourTopic[] = [
  { id: 'hover', definitions: hover.definitions, run: hover.run },
  { id: 'disclosure', definitions: disclosure.definitions, run: disclosure.run },
  { id: 'context-change', definitions: contextChange.definitions, run: contextChange.run },
  { id: 'keys', definitions: keys.definitions, run: keys.run },
  { id: 'pointer', definitions: pointer.definitions, run: pointer.run },
  { id: 'auth', definitions: auth.definitions, run: auth.run },
  { id: 'status', definitions: status.definitions, run: status.run },
];

/** Every check of the behaviour engine, by check id. */
export const behaviourChecks: Readonly<Record<string, OwnCheckDefinition>> = Object.assign(
  {},
  ...behaviourTopics.map((topic) => topic.definitions),
) as Record<string, OwnCheckDefinition>;
