import { useSyncExternalStore } from 'react';

/**
 * The one toast system (spec §4): one toast visible at a time; a new one replaces the old.
 */
export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
}

let current: ToastMessage | undefined;
let toasted = false;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function toast(message: Omit<ToastMessage, 'id'>): void {
  current = { ...message, id: nextId++ };
  toasted = true;
  emit();
}

export function dismissToast(id: number): void {
  if (current?.id !== id) return;
  current = undefined;
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentToast(): ToastMessage | undefined {
  return useSyncExternalStore(subscribe, () => current);
}

/** Whether any toast has been raised yet: the toaster loads with the first. */
export function useHasToasted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => toasted,
    () => false,
  );
}
