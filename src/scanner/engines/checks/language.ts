import type { Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import { checks } from './checks.js';
import { evaluateInPage, inPageRead, type PageHelpers } from './in-page.js';

/** One piece of text with the language the page declares for it. */
export interface TextUnit {
  selector: string;
  html: string;
  /** The declared language's primary subtag, lower case ('' when none). */
  lang: string;
  /** Whether the element itself carries the lang attribute. */
  ownLang: boolean;
  text: string;
  /** The index of the passage that holds this one, -1 when none. */
  within: number;
}

/** What the language checks read in the page. */
export interface LanguageFacts {
  /** The html element's lang (primary subtag, lower case), '' when none. */
  pageLang: string;
  /** The page's text in its declared language (parts marked with another lang left out). */
  pageText: string;
  /** Blocks, sentences of long blocks and inline phrases long enough to tell their language. */
  passages: TextUnit[];
}

/**
 * Thresholds, measured with eld's small database on hand-written texts in eight languages (24
 * samples per length): every sample of 35 characters or more was right, and the runner-up scored
 * at most 0.90 of the winner from 50 characters on. A language is "clearly" another only with a
 * margin and a low score for the declared one, on text long enough that wrong answers stopped.
 */
export const languageThresholds = {
  /** A passage shorter than this (letters and spaces) is not judged. */
  minPassageChars: 40,
  /** A passage at least this long, with every part agreeing, is a violation of 3.1.2. */
  surePassageChars: 160,
  /** The page's text must be this long to be judged at all, and this long to be sure. */
  minPageChars: 120,
  surePageChars: 400,
  /** The winner must lead the runner-up by this fraction of its score. */
  minMargin: 0.1,
  /** The declared language must score at most this fraction of the winner. */
  maxDeclaredRatio: 0.75,
  /** Parts a long text is cut into; every part must name the same language to be sure. */
  partChars: 200,
} as const;

/** The read `readLanguageFacts` makes by default, for `readAllAhead`. */
export const languageRead = inPageRead(collectLanguageFacts, 300);

/** Reads the page's declared language, its text and its passages. */
export async function readLanguageFacts(page: Page, limit = 300): Promise<LanguageFacts> {
  return evaluateInPage(page, collectLanguageFacts, limit);
}

/** Runs in the page. */
function collectLanguageFacts(limit: number, h: PageHelpers): LanguageFacts {
  const primary = (value: string | null) => (value ?? '').trim().split(/[-_]/)[0]!.toLowerCase();
  const pageLang = primary(document.documentElement.getAttribute('lang'));
  const skipped =
    'script, style, noscript, template, code, pre, kbd, samp, var, svg, math, textarea, select, option, [aria-hidden="true"], [translate="no"]';
  const blocks =
    'p, li, blockquote, dd, dt, td, th, h1, h2, h3, h4, h5, h6, figcaption, caption, summary, legend, label';
  const inline = 'q, i, em, cite, span, b, strong, a, abbr';

  const pageParts: string[] = [];
  let pageLength = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && pageLength < 6_000; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = h.clean(node.textContent);
    if (!parent || !text || parent.closest(skipped)) continue;
    if (primary(parent.closest('[lang]')?.getAttribute('lang') ?? '') !== pageLang) continue;
    if (!h.isRendered(parent)) continue;
    pageParts.push(text);
    pageLength += text.length + 1;
  }

  /** The element's text without parts in another declared language or skipped content. */
  const textOf = (element: Element, lang: string): string => {
    const parts: string[] = [];
    const inner = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = inner.nextNode(); node; node = inner.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skipped)) continue;
      if (primary(parent.closest('[lang]')?.getAttribute('lang') ?? '') !== lang) continue;
      parts.push(node.textContent ?? '');
    }
    return h.clean(parts.join(''));
  };

  const passages: TextUnit[] = [];
  const indexOf = new Map<Element, number>();
  const add = (element: Element, text: string) => {
    const langElement = element.closest('[lang]');
    let within = -1;
    for (let node = element.parentElement; node && within < 0; node = node.parentElement) {
      within = indexOf.get(node) ?? -1;
    }
    indexOf.set(element, passages.length);
    passages.push({
      within,
      selector: h.selectorOf(element),
      html: h.htmlOf(element),
      lang: primary(langElement?.getAttribute('lang') ?? ''),
      ownLang: langElement === element,
      text: text.slice(0, 1_000),
    });
  };
  const candidates = Array.from(document.body.querySelectorAll(`${blocks}, ${inline}`));
  for (const element of candidates) {
    if (passages.length >= limit) break;
    if ((element.textContent ?? '').length < 20) continue;
    if (element.closest(skipped) || !h.isRendered(element)) continue;
    const lang = primary(element.closest('[lang]')?.getAttribute('lang') ?? '');
    const text = textOf(element, lang);
    if (text.length < 20) continue;
    const isBlock = element.matches(blocks);
    // An inline phrase counts when it is only part of its block (else the block stands for it).
    if (!isBlock) {
      const block = element.parentElement?.closest(blocks);
      if (!block || textOf(block, lang).length <= text.length + 10) continue;
      if (element.localName === 'a' || element.localName === 'span') {
        if (!element.hasAttribute('lang') && text.length < 40) continue;
      }
    }
    // A block made of other blocks (a list item holding paragraphs) is read through them.
    if (isBlock && element.querySelector(blocks)) continue;
    add(element, text);
  }
  return { pageLang, pageText: pageParts.join(' '), passages };
}

/** eld's answer for one text. */
export interface Detection {
  language: string;
  /** (winner - runner-up) / winner. */
  margin: number;
  /** The declared language's score as a fraction of the winner's (0 when it is not among them). */
  declaredRatio: number;
}

interface Detector {
  detect(text: string): { language: string; getScores(): Record<string, number> };
  info(): { Languages: Record<string, string> };
}

let detectorLoad: Promise<Detector> | undefined;

/**
 * eld with its small n-gram database (1.6 MB), loaded once per process. Loading takes a second or
 * two: the engine starts it before its timed groups run.
 */
export function loadLanguageDetector(): Promise<Detector> {
  detectorLoad ??= import('eld/small').then((module) => module.eld as unknown as Detector);
  return detectorLoad;
}

/** Languages so close that a detector confuses them: never a finding between them. */
const closeLanguages: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['no', 'nb', 'nn', 'da', 'sv']),
  new Set(['hr', 'sr', 'bs', 'sh', 'sl']),
  new Set(['ms', 'id']),
  new Set(['cs', 'sk']),
  new Set(['gl', 'pt']),
  new Set(['ca', 'oc']),
];

/** A declared language as eld names it (Norwegian Bokmål and Nynorsk are "no" there). */
function eldCode(lang: string): string {
  return lang === 'nb' || lang === 'nn' ? 'no' : lang === 'iw' ? 'he' : lang;
}

function distinct(a: string, b: string): boolean {
  return a !== b && !closeLanguages.some((group) => group.has(a) && group.has(b));
}

/** Only letters and single spaces: what the thresholds measure. */
function letterText(text: string): string {
  return text
    .replace(/https?:\/\/\S+|\S+@\S+/g, ' ')
    .replace(/[^\p{L}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function detect(detector: Detector, text: string, declared: string): Detection {
  const result = detector.detect(text);
  const scores = Object.values(result.getScores()).sort((a, b) => b - a);
  const top = scores[0] ?? 0;
  const declaredScore = result.getScores()[declared] ?? 0;
  return {
    language: result.language,
    margin: top > 0 ? (top - (scores[1] ?? 0)) / top : 0,
    declaredRatio: top > 0 ? declaredScore / top : 0,
  };
}

/** Cuts a text into parts of about `size` characters at word boundaries. */
function partsOf(text: string, size: number): string[] {
  const words = text.split(' ');
  const parts: string[] = [];
  let current = '';
  for (const word of words) {
    current = current ? `${current} ${word}` : word;
    if (current.length >= size) {
      parts.push(current);
      current = '';
    }
  }
  if (current.length >= size / 2 || parts.length === 0) parts.push(current);
  else parts[parts.length - 1] += ` ${current}`;
  return parts;
}

/**
 * How clearly `text` is in another language than `declared`: 'sure' when the whole and every part
 * of a long enough text name one other language clearly, 'likely' when the whole does, else null.
 */
export function judgeLanguage(
  detector: Detector,
  text: string,
  declared: string,
  sureChars: number,
): { language: string; confidence: 'sure' | 'likely'; whole: Detection; parts: number } | null {
  const t = languageThresholds;
  const whole = detect(detector, text, declared);
  const clear = (d: Detection) =>
    d.language !== '' &&
    distinct(d.language, declared) &&
    d.margin >= t.minMargin &&
    d.declaredRatio <= t.maxDeclaredRatio;
  if (!clear(whole)) return null;
  const parts = text.length >= sureChars ? partsOf(text, t.partChars) : [];
  const agree =
    parts.length > 0 &&
    parts.every((part) => {
      const d = detect(detector, part, declared);
      return d.language === whole.language && clear(d);
    });
  return {
    language: whole.language,
    confidence: agree ? 'sure' : 'likely',
    whole,
    parts: parts.length,
  };
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const nameOf = (code: string) => {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * The languages eld's small database knows (its `info().Languages`; a test keeps the two equal):
 * known before the detector is loaded, so a page with nothing to judge never loads it.
 */
export const detectorLanguages: ReadonlySet<string> = new Set(
  'am ar az be bg bn ca cs da de el en es et eu fa fi fr gu he hi hr hu hy is it ja ka kn ko ku lo lt lv ml mr ms nl no or pa pl pt ro ru sk sl sq sr sv ta te th tl tr uk ur vi yo zh'.split(
    ' ',
  ),
);

/** Whether the page's text or one of its passages is long enough to judge its language. */
export function hasTextToJudge(facts: LanguageFacts): boolean {
  const t = languageThresholds;
  if (
    detectorLanguages.has(eldCode(facts.pageLang)) &&
    letterText(facts.pageText).length >= t.minPageChars
  ) {
    return true;
  }
  return facts.passages.some((passage) => judgeable(passage));
}

/** A passage `languageFindings` would put to the detector. */
function judgeable(passage: TextUnit): boolean {
  const text = letterText(passage.text);
  return (
    detectorLanguages.has(eldCode(passage.lang)) &&
    text.length >= languageThresholds.minPassageChars &&
    text.split(' ').length >= 5
  );
}

/**
 * Runs the language checks on the loaded page. The detector (a second of CPU to load, once per
 * process) is loaded through `loadLibrary` only when the page has text long enough to judge.
 */
export async function runLanguageChecks(
  page: Page,
  loadLibrary: <T>(load: () => Promise<T>) => Promise<T> = (load) => load(),
): Promise<OwnCheckResult[]> {
  const facts = await readLanguageFacts(page);
  if (!hasTextToJudge(facts)) return [];
  return languageFindings(facts, await loadLibrary(loadLanguageDetector));
}

/**
 * The page's declared language against its text (3.1.1) and each passage's against its own
 * (3.1.2). Nothing is said about a language the detector does not know.
 */
export function languageFindings(facts: LanguageFacts, detector: Detector): OwnCheckResult[] {
  const t = languageThresholds;
  const known = new Set(Object.values(detector.info().Languages));
  const found: OwnCheckResult[] = [];
  let pageIs = '';
  const declaredPage = eldCode(facts.pageLang);
  const pageText = letterText(facts.pageText);
  if (known.has(declaredPage) && pageText.length >= t.minPageChars) {
    const judged = judgeLanguage(detector, pageText, declaredPage, t.surePageChars);
    if (judged) {
      pageIs = judged.language;
      found.push(
        checkResult(
          checks,
          'language-page-mismatch',
          { selector: 'html', html: `<html lang="${facts.pageLang}">` },
          `The page declares lang="${facts.pageLang}" (${nameOf(facts.pageLang)}) but its text is ${judged.confidence === 'sure' ? 'clearly' : 'probably'} ${nameOf(judged.language)}: screen readers will read it with the wrong pronunciation.${judged.confidence === 'sure' ? '' : ' The text is short or mixed: check it.'}`,
          {
            kind: judged.confidence === 'sure' ? 'violation' : 'needs-review',
            details: {
              declared: facts.pageLang,
              detected: judged.language,
              characters: pageText.length,
              margin: round(judged.whole.margin),
              declaredRatio: round(judged.whole.declaredRatio),
              parts: judged.parts,
            },
          },
        ),
      );
    }
  }
  const reported = new Map<number, string>();
  for (const [index, passage] of facts.passages.entries()) {
    const declared = eldCode(passage.lang);
    const text = letterText(passage.text);
    if (!known.has(declared) || !judgeable(passage)) continue;
    const judged = judgeLanguage(detector, text, declared, t.surePassageChars);
    if (!judged) {
      const phrase = phraseInAnotherLanguage(detector, passage.text, declared);
      if (
        phrase &&
        phrase.language !== pageIs &&
        !(passage.within >= 0 && reported.has(passage.within))
      ) {
        reported.set(index, phrase.language);
        found.push(
          checkResult(
            checks,
            'language-part-mismatch',
            passage,
            `Part of this text ("${phrase.text.slice(0, 80)}") is probably ${nameOf(phrase.language)}, but ${passage.ownLang ? 'its lang attribute says' : 'the page says'} ${nameOf(passage.lang)}: if it is, put it in an element with lang="${phrase.language}" (for example a span) so screen readers switch pronunciation. Names, quotations and borrowed words may be misjudged: check it.`,
            {
              kind: 'needs-review',
              details: {
                declared: passage.lang,
                detected: phrase.language,
                phrase: phrase.text,
                margin: round(phrase.margin),
                declaredRatio: round(phrase.declaredRatio),
              },
            },
          ),
        );
      }
      continue;
    }
    // A page whose declared language is wrong as a whole is one finding, not one per paragraph.
    if (judged.language === pageIs && !passage.ownLang) continue;
    // A phrase inside a passage already reported in the same language adds nothing.
    if (passage.within >= 0 && reported.get(passage.within) === judged.language) continue;
    reported.set(index, judged.language);
    const sure = judged.confidence === 'sure';
    found.push(
      checkResult(
        checks,
        'language-part-mismatch',
        passage,
        `This text ("${passage.text.slice(0, 60)}${passage.text.length > 60 ? '…' : ''}") is ${sure ? 'clearly' : 'probably'} ${nameOf(judged.language)}, but ${passage.ownLang ? 'its lang attribute says' : 'the page says'} ${nameOf(passage.lang)}: mark it with lang="${judged.language}" so screen readers switch pronunciation.${sure ? '' : ' Short passages, names and quotations may be misjudged: check it.'}`,
        {
          kind: sure ? 'violation' : 'needs-review',
          details: {
            declared: passage.lang,
            detected: judged.language,
            characters: text.length,
            margin: round(judged.whole.margin),
            declaredRatio: round(judged.whole.declaredRatio),
            parts: judged.parts,
          },
        },
      ),
    );
    if (found.length >= 30) break;
  }
  return found;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * A sentence or quoted phrase of a passage, long enough to judge, that is probably in another
 * language than the passage (a French sentence inside an English paragraph, with no element of
 * its own): only ever for review.
 */
function phraseInAnotherLanguage(
  detector: Detector,
  text: string,
  declared: string,
): { text: string; language: string; margin: number; declaredRatio: number } | null {
  const t = languageThresholds;
  const whole = letterText(text);
  const pieces = text.split(/(?<=[.!?;:])\s+|[«»“”„"()[\]—–]/);
  if (pieces.length < 2) return null;
  for (const piece of pieces) {
    const letters = letterText(piece);
    if (letters.length < t.minPassageChars || letters.split(' ').length < 5) continue;
    if (letters.length > whole.length - 20) continue;
    const judged = judgeLanguage(detector, letters, declared, Infinity);
    if (judged) {
      return {
        text: piece.trim(),
        language: judged.language,
        margin: judged.whole.margin,
        declaredRatio: judged.whole.declaredRatio,
      };
    }
  }
  return null;
}
