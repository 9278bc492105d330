import { engineIds, type EngineId } from '../../contract/index.js';
import { axeEngine } from './axe.js';
import type { Engine } from './engine.js';
import { ibmEngine } from './ibm.js';
import { pa11yEngine } from './pa11y.js';

/** Every engine by id. */
export const engines: { [Id in EngineId]: Engine<Id> } = {
  axe: axeEngine,
  pa11y: pa11yEngine,
  ibm: ibmEngine,
};

export function getEngine<Id extends EngineId>(id: Id): Engine<Id> {
  return engines[id];
}

/**
 * The selected engines in run order, without duplicates. Order matters: pa11y replaces
 * `window.axe` when it injects its runners, so our axe runs before it.
 */
export function engineRunOrder(selected: readonly EngineId[] = engineIds): EngineId[] {
  return engineIds.filter((id) => selected.includes(id));
}
