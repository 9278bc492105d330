import { createHash } from 'node:crypto';
import type { Page } from 'puppeteer-core';
import type { ConformanceLevel, EngineId } from '#contract/index.js';

/**
 * What the engines would read, in one pass over the page: every element's tag and attributes,
 * its text, open shadow roots (the engines walk into them), form fields' current values and
 * checked states, and the rules of the page's own stylesheets (a colour change in a CSS file
 * changes contrast findings without touching the markup). Left out: what changes on every load
 * of many pages without changing what is shown or tested: the text of scripts, `nonce`
 * attributes, hidden inputs' values and token meta tags (CSRF tokens).
 * Kept as a string (not a function) so the test transform cannot add helpers the page lacks.
 */
const RENDERING_IN_PAGE = `(() => {
  const out = [];
  const secret = (element, name) =>
    name === 'nonce' ||
    (element.localName === 'input' && element.type === 'hidden' && name === 'value') ||
    (element.localName === 'meta' && name === 'content' &&
      /csrf|token|nonce/i.test(element.getAttribute('name') || ''));
  const walk = (node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        out.push('"', child.data);
        continue;
      }
      if (child.nodeType !== 1) continue;
      out.push('<', child.localName);
      for (const attr of child.attributes) {
        if (!secret(child, attr.name)) out.push(' ', attr.name, '=', attr.value);
      }
      if (
        'value' in child && typeof child.value === 'string' &&
        child.localName !== 'button' && !secret(child, 'value')
      ) {
        out.push(' .value=', child.value);
      }
      if (child.checked === true) out.push(' .checked');
      out.push('>');
      if (child.shadowRoot) {
        out.push('#shadow{');
        walk(child.shadowRoot);
        out.push('}');
      }
      if (child.localName !== 'script') walk(child);
      out.push('</>');
    }
  };
  walk(document);
  for (const sheet of document.styleSheets) {
    if (sheet.ownerNode && sheet.ownerNode.localName === 'style') continue;
    try {
      out.push('@sheet ', sheet.href || '');
      for (const rule of sheet.cssRules) out.push(rule.cssText);
    } catch {
      // Another origin's stylesheet cannot be read; its address is in the markup.
    }
  }
  return out.join('\\u0001');
})()`;

export interface RenderingContext {
  viewport: { width: number; height: number };
  level: ConformanceLevel;
  engines: readonly EngineId[];
}

/**
 * The render hash: sha-256 (hex) of what the engines read after load, settling and actions,
 * with the viewport, level and engines it would be tested at. Engine versions are not part of
 * it: a scanner upgrade does not change the page, and findings new from an upgrade are told
 * apart from the page's own changes by comparing versions separately.
 */
export async function readRenderHash(page: Page, context: RenderingContext): Promise<string> {
  const rendering = (await page.evaluate(RENDERING_IN_PAGE)) as string;
  return createHash('sha256')
    .update(
      JSON.stringify({
        viewport: [context.viewport.width, context.viewport.height],
        level: context.level,
        engines: context.engines,
      }),
    )
    .update('\n')
    .update(rendering)
    .digest('hex');
}
