import { defaultEngineIds, type EngineId } from '#contract/index.js';
import { axeEngine } from './axe/index.js';
import { behaviourEngine } from './behaviour/index.js';
import { checksEngine } from './checks/index.js';
import type { AnyEngine, Engine, EngineCounts, EngineRaw } from './engine.js';
import { ibmEngine } from './ibm/index.js';
import { keyboardEngine } from './keyboard/index.js';
import { pa11yEngine } from './pa11y/index.js';

/**
 * Every engine by id, in run order. Order matters: pa11y replaces `window.axe` when it injects
 * its runners, so our axe runs before it. An engine is one folder beside this file and one line
 * here (and its id in the contract's engineIds, the vocabulary of stored scans and the HTTP API).
 */
export const engines: { [Id in EngineId]: Engine<Id> } = {
  axe: axeEngine,
  pa11y: pa11yEngine,
  ibm: ibmEngine,
  // Conformly's own: the checks read the page as loaded; the keyboard walk moves focus; the
  // behaviour engine operates the page (hover, keys, clicks), so it runs last of all.
  checks: checksEngine,
  keyboard: keyboardEngine,
  behaviour: behaviourEngine,
};

export function getEngine<Id extends EngineId>(id: Id): Engine<Id> {
  return engines[id];
}

/** A set of engines to scan and analyse with, in run order. */
export interface EngineRegistry {
  readonly all: readonly AnyEngine[];
  get(id: EngineId): AnyEngine | undefined;
  /**
   * The selected engines in run order, without duplicates; with none selected, the registry's
   * defaults.
   */
  runOrder(selected?: readonly EngineId[]): AnyEngine[];
}

/**
 * A registry of these engines; `defaults` are the ones a scan runs when it names none (every
 * engine unless given).
 */
export function createEngineRegistry(
  list: readonly AnyEngine[],
  defaults: readonly EngineId[] = list.map((engine) => engine.id),
): EngineRegistry {
  return {
    all: list,
    get: (id) => list.find((engine) => engine.id === id),
    runOrder: (selected) => {
      const wanted = selected ?? defaults;
      return list.filter((engine) => wanted.includes(engine.id));
    },
  };
}

/**
 * The engines the product has. A scan that names none runs the defaults: the behaviour engine
 * operates other people's pages and runs only when asked for (`--engines …,behaviour`).
 */
export const builtInEngines: EngineRegistry = createEngineRegistry(
  Object.values(engines),
  defaultEngineIds,
);

/** The selected built-in engines' ids in run order, without duplicates. */
export function engineRunOrder(selected?: readonly EngineId[]): EngineId[] {
  return builtInEngines.runOrder(selected).map((engine) => engine.id);
}

/**
 * An engine's counts of its own raw output; nothing counted for an engine that produced none
 * (not run, or a page that could not be scanned).
 */
export function countEngineRaw(
  id: EngineId,
  raw: EngineRaw | null | undefined,
  registry: EngineRegistry = builtInEngines,
): EngineCounts {
  const engine = registry.get(id);
  if (!engine || !raw) return { issues: 0, errors: 0, warnings: 0, notices: 0 };
  return engine.counts(raw);
}
