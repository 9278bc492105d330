/**
 * The API answers the server wrote into the page for the screen it was asked for
 * (src/server/plugins/embedded-answers.ts): a screen's first GETs of those paths are answered
 * from here, without a round trip, so the screen renders once with its data instead of after a
 * chain of answers. Each answer serves one call, and only while the page is fresh: a screen
 * opened later asks the server.
 */
const freshForMs = 15_000;

let answers: Map<string, unknown> | undefined;

function read(): Map<string, unknown> {
  if (answers) return answers;
  answers = new Map();
  const element = typeof document === 'undefined' ? null : document.getElementById('api-answers');
  if (!element?.textContent) return answers;
  element.remove();
  try {
    const parsed = JSON.parse(element.textContent) as Record<string, unknown>;
    for (const [path, answer] of Object.entries(parsed)) answers.set(path, answer);
  } catch {
    // A page without usable answers asks the server, as it would without any.
  }
  return answers;
}

/** The page's answer for a GET of `path`, once; undefined when there is none (ask the server). */
export function takeEmbeddedAnswer(path: string): { answer: unknown } | undefined {
  const all = read();
  if (!all.has(path)) return undefined;
  const answer = all.get(path);
  all.delete(path);
  if (typeof performance !== 'undefined' && performance.now() > freshForMs) {
    all.clear();
    return undefined;
  }
  return { answer };
}
