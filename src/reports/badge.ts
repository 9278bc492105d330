import { makeBadge } from 'badge-maker';
import {
  badgeLanguages,
  formatDocumentDate,
  formatScore,
  scoreLabel,
  scoreTone,
  toneColours,
  type BadgeLanguage,
  type BadgeOptions,
  type BadgeSettings,
  type ScoreLabel,
} from '#contract/index.js';

/**
 * The live badge as SVG (spec dashboard-area §2, §3, §7, §9). What it states is evidence: that the
 * site is monitored, its latest automated scan score and that scan's date. It never says the site
 * "is compliant": an automated score is a measurement, not a certification.
 *
 * The label-and-message shapes come from badge-maker; a stacked (vertical) badge is two
 * badge-maker badges one above the other, and the square icon (16/24/32 px) is drawn here because
 * badge-maker makes only label/message pills. Every badge is wrapped in one outer <svg> that
 * carries the accessible name (role="img", aria-label and <title>) and the size.
 */

export interface BadgeEvidence {
  domain: string;
  /** The latest completed scan's score, 0-100; null before the first one. */
  score: number | null;
  scannedAt: Date | null;
  /**
   * The latest site audit scanned no page (docs/scoring.md): no score, and the badge says so
   * instead of "first scan pending" or a clean result.
   */
  auditFailed?: boolean;
}

interface Words {
  /** The vocabulary's score labels (contract/vocabulary.ts) in this language. */
  labels: Record<ScoreLabel, string>;
  label: string;
  short: string;
  score: (score: number) => string;
  scanned: (date: string) => string;
  pending: string;
  /** The latest site audit could not scan any page. */
  noScore: string;
  byUs: string;
  /** The accessible name: who says what about which site. */
  name: (domain: string, parts: string[]) => string;
  scoreOutOf: (score: number) => string;
  lastScanned: (date: string) => string;
}

const words: Record<BadgeLanguage, Words> = {
  en: {
    labels: { Excellent: 'Excellent', Good: 'Good', Fair: 'Fair', 'Needs Work': 'Needs Work' },
    label: 'Accessibility monitored',
    short: 'a11y',
    score: (score) => `score ${formatScore(score)} · ${scoreLabel(score)}`,
    scanned: (date) => `scanned ${date}`,
    pending: 'first scan pending',
    noScore: 'no score: latest audit failed',
    byUs: 'by Conformly',
    name: (domain, parts) =>
      [`Accessibility of ${domain} monitored by Conformly`, ...parts].join(', '),
    scoreOutOf: (score) => `automated scan score ${score} out of 100, ${scoreLabel(score)}`,
    lastScanned: (date) => `last scanned ${date}`,
  },
  de: {
    labels: {
      Excellent: 'Ausgezeichnet',
      Good: 'Gut',
      Fair: 'Befriedigend',
      'Needs Work': 'Verbesserungsbedarf',
    },
    label: 'Barrierefreiheit überwacht',
    short: 'a11y',
    score: (score) => `Bewertung ${formatScore(score)} · ${words.de.labels[scoreLabel(score)]}`,
    scanned: (date) => `geprüft ${date}`,
    pending: 'erste Prüfung ausstehend',
    noScore: 'keine Bewertung: letzte Prüfung fehlgeschlagen',
    byUs: 'von Conformly',
    name: (domain, parts) =>
      [`Barrierefreiheit von ${domain} überwacht von Conformly`, ...parts].join(', '),
    scoreOutOf: (score) =>
      `automatische Bewertung ${score} von 100, ${words.de.labels[scoreLabel(score)]}`,
    lastScanned: (date) => `zuletzt geprüft ${date}`,
  },
  fr: {
    labels: { Excellent: 'Excellent', Good: 'Bon', Fair: 'Passable', 'Needs Work': 'À améliorer' },
    label: 'Accessibilité surveillée',
    short: 'a11y',
    score: (score) => `score ${formatScore(score)} · ${words.fr.labels[scoreLabel(score)]}`,
    scanned: (date) => `analysé le ${date}`,
    pending: 'première analyse en attente',
    noScore: 'pas de score : dernière analyse échouée',
    byUs: 'par Conformly',
    name: (domain, parts) =>
      [`Accessibilité de ${domain} surveillée par Conformly`, ...parts].join(', '),
    scoreOutOf: (score) =>
      `score d’analyse automatique ${score} sur 100, ${words.fr.labels[scoreLabel(score)]}`,
    lastScanned: (date) => `dernière analyse le ${date}`,
  },
  es: {
    labels: { Excellent: 'Excelente', Good: 'Buena', Fair: 'Aceptable', 'Needs Work': 'Mejorable' },
    label: 'Accesibilidad supervisada',
    short: 'a11y',
    score: (score) => `puntuación ${formatScore(score)} · ${words.es.labels[scoreLabel(score)]}`,
    scanned: (date) => `analizado ${date}`,
    pending: 'primer análisis pendiente',
    noScore: 'sin puntuación: falló el último análisis',
    byUs: 'por Conformly',
    name: (domain, parts) =>
      [`Accesibilidad de ${domain} supervisada por Conformly`, ...parts].join(', '),
    scoreOutOf: (score) =>
      `puntuación de análisis automático ${score} de 100, ${words.es.labels[scoreLabel(score)]}`,
    lastScanned: (date) => `último análisis ${date}`,
  },
};

/** The supported language a tag asks for (its primary subtag), else English. */
export function badgeLanguageOf(tag: string | undefined): BadgeLanguage {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return badgeLanguages.find((language) => language === primary) ?? 'en';
}

/**
 * The vocabulary's colour of the score's band (ADR 0013), white text at 4.5:1 or more: green,
 * amber, red; grey before the first scan.
 */
export function badgeColorOf(score: number | null): string {
  return toneColours[scoreTone(score)].solid;
}

const labelColors: Record<BadgeSettings['theme'], string> = { light: '#e5e7eb', dark: '#111827' };
const scales: Record<BadgeSettings['size'], number> = { small: 0.8, medium: 1, large: 1.5 };

export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const badgeLocales: Record<BadgeLanguage, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
};

/** What the badge shows and says, in the badge's language. */
function texts(evidence: BadgeEvidence, options: BadgeOptions) {
  const t = words[options.lang];
  const shown: string[] = [];
  const spoken: string[] = [];
  if (evidence.score === null && evidence.auditFailed) {
    shown.push(t.noScore);
    spoken.push(t.noScore);
  } else if (evidence.score === null || evidence.scannedAt === null) {
    shown.push(t.pending);
    spoken.push(t.pending);
  } else {
    if (options.showPercentage) {
      shown.push(t.score(evidence.score));
      spoken.push(t.scoreOutOf(evidence.score));
    }
    if (options.showDate) {
      const date = formatDocumentDate(evidence.scannedAt, badgeLocales[options.lang]);
      shown.push(t.scanned(date));
      spoken.push(t.lastScanned(date));
    }
  }
  return {
    label: options.variant === 'mini' ? t.short : t.label,
    message: shown.length > 0 ? shown.join(' · ') : t.byUs,
    name: t.name(evidence.domain, spoken),
  };
}

interface Part {
  svg: string;
  width: number;
  height: number;
}

/** A badge-maker badge made decorative: the outer <svg> names the whole badge once. */
function part(svg: string, idSuffix = ''): Part {
  const size = /^<svg [^>]*?width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  if (!size) throw new Error('badge-maker returned an SVG without a size');
  const inner = svg
    .replace(/ role="img" aria-label="[^"]*"/, ' aria-hidden="true"')
    .replace(/<title>[^<]*<\/title>/, '')
    // badge-maker's idSuffix leaves its shadow filter's id alone; two in one document must differ.
    .replaceAll('id="blur"', `id="blur${idSuffix}"`)
    .replaceAll('url(#blur)', `url(#blur${idSuffix})`);
  return { svg: inner, width: Number(size[1]), height: Number(size[2]) };
}

function at(piece: Part, x: number, y: number): string {
  return piece.svg.replace(/^<svg /, `<svg x="${x}" y="${y}" `);
}

function wrap(name: string, width: number, height: number, scale: number, body: string): string {
  const round = (value: number) => Math.round(value * 100) / 100;
  const label = escapeXml(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${round(width * scale)}" ` +
    `height="${round(height * scale)}" viewBox="0 0 ${round(width)} ${round(height)}" ` +
    `role="img" aria-label="${label}"><title>${label}</title>${body}</svg>`
  );
}

function icon(evidence: BadgeEvidence, options: BadgeOptions, name: string): string {
  const color = badgeColorOf(evidence.score);
  const dark = options.theme === 'dark';
  const background = dark ? labelColors.dark : color;
  const ring = dark
    ? `<circle cx="16" cy="16" r="13" fill="none" stroke="${color}" stroke-width="3"/>`
    : '';
  // A figure is legible from 24 px up; a 16 px icon (and a hidden score) shows a check mark.
  const figure =
    options.showPercentage && evidence.score !== null && options.iconSize >= 24
      ? `<text x="16" y="20.5" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" ` +
        `font-size="${evidence.score === 100 ? 10 : 12}" font-weight="bold" fill="#fff">${evidence.score}</text>`
      : `<path d="M9 16.5l4.5 4.5L23 11.5" fill="none" stroke="#fff" stroke-width="3.5" ` +
        `stroke-linecap="round" stroke-linejoin="round"/>`;
  const label = escapeXml(name);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${options.iconSize}" height="${options.iconSize}" ` +
    `viewBox="0 0 32 32" role="img" aria-label="${label}"><title>${label}</title>` +
    `<rect width="32" height="32" rx="7" fill="${background}"/>${ring}${figure}</svg>`
  );
}

/** The badge for `evidence` drawn with `options`: a standalone SVG document. */
export function renderBadge(evidence: BadgeEvidence, options: BadgeOptions): string {
  const { label, message, name } = texts(evidence, options);
  if (options.variant === 'icon') return icon(evidence, options, name);

  const color = badgeColorOf(evidence.score);
  const labelColor = labelColors[options.theme];
  const scale = scales[options.size];
  if (options.orientation === 'horizontal') {
    const badge = part(makeBadge({ label, message, color, labelColor, style: options.style }));
    return wrap(name, badge.width, badge.height, scale, badge.svg);
  }
  // Stacked: the label above the evidence, each centred; their ids differ so both render.
  const top = part(
    makeBadge({
      label: '',
      message: label,
      color: labelColor,
      style: options.style,
      idSuffix: 'l',
    }),
    'l',
  );
  const bottom = part(
    makeBadge({ label: '', message, color, style: options.style, idSuffix: 'm' }),
    'm',
  );
  const width = Math.max(top.width, bottom.width);
  const body =
    at(top, (width - top.width) / 2, 0) + at(bottom, (width - bottom.width) / 2, top.height);
  return wrap(name, width, top.height + bottom.height, scale, body);
}
