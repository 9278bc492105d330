import { useEffect, useState } from 'react';

/** Spec §9: one character every 220 ms, then a 4 s pause on each full sample. */
export const typingTickMs = 220;
export const typingPauseMs = 4000;

/** Types each sample out character by character, pauses, then starts the next one. */
export function useTypingPlaceholder(samples: readonly string[]): string {
  const [state, setState] = useState({ sample: 0, length: 0 });
  useEffect(() => {
    const text = samples[state.sample % samples.length] ?? '';
    const full = state.length >= text.length;
    const timer = setTimeout(
      () =>
        setState((s) =>
          full
            ? { sample: (s.sample + 1) % samples.length, length: 0 }
            : { ...s, length: s.length + 1 },
        ),
      full ? typingPauseMs : typingTickMs,
    );
    return () => clearTimeout(timer);
  }, [state, samples]);
  return (samples[state.sample % samples.length] ?? '').slice(0, state.length);
}
