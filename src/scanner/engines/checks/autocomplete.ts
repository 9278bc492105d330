import type { Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import { checks } from './checks.js';
import { evaluateInPage, inPageRead, type PageHelpers } from './in-page.js';

/** What the autocomplete check needs to know about one rendered form field, read in the page. */
export interface FieldFacts {
  selector: string;
  html: string;
  /** `input`, `select` or `textarea`. */
  tag: string;
  /** The input's type, lower case (`text` when missing). */
  type: string;
  name: string;
  id: string;
  /** The autocomplete attribute as written, null when there is none. */
  autocomplete: string | null;
  /** The field's label as assistive technology reads it (label, aria-label(ledby), title, placeholder). */
  label: string;
  /** The label of the field's group: its fieldset's legend, a role=group's or section's name. */
  group: string;
  /** The form's name and heading. */
  form: string;
}

/** The read `readFields` makes by default, for `readAllAhead`. */
export const fieldsRead = inPageRead(collectFields, 500);

/** Reads the rendered, editable text fields and selects of the page (at most `limit`). */
export async function readFields(page: Page, limit = 500): Promise<FieldFacts[]> {
  return evaluateInPage(page, collectFields, limit);
}

/** Runs in the page. */
function collectFields(limit: number, h: PageHelpers): FieldFacts[] {
  const textTypes = new Set(['text', 'email', 'tel', 'url', 'date', 'number', '']);
  const labelOf = (field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): string => {
    const labelledBy = h.clean(field.getAttribute('aria-labelledby'));
    if (labelledBy) {
      const text = labelledBy
        .split(' ')
        .map((id) => h.clean(document.getElementById(id)?.textContent))
        .join(' ')
        .trim();
      if (text) return text;
    }
    const parts = [h.clean(field.getAttribute('aria-label'))];
    for (const label of Array.from(field.labels ?? [])) {
      // The label's text without the field's own (a select's options, a wrapped input's value).
      const copy = label.cloneNode(true) as Element;
      copy.querySelectorAll('input, select, textarea').forEach((inner) => inner.remove());
      parts.push(h.clean(copy.textContent));
    }
    parts.push(h.clean(field.getAttribute('title')), h.clean(field.getAttribute('placeholder')));
    return h.clean(parts.filter(Boolean).join(' '));
  };
  const headingBefore = (form: Element): string => {
    const own = form.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]');
    if (own) return h.clean(own.textContent);
    for (let node = form.previousElementSibling, steps = 0; node && steps < 3; steps++) {
      if (node.matches('h1, h2, h3, h4, h5, h6, [role="heading"]'))
        return h.clean(node.textContent);
      node = node.previousElementSibling;
    }
    return '';
  };
  const groupOf = (field: Element): string => {
    const parts: string[] = [];
    const fieldset = field.closest('fieldset');
    const legend = fieldset?.querySelector(':scope > legend');
    if (legend) parts.push(h.clean(legend.textContent));
    const group = field.parentElement?.closest('[role="group"], [role="region"], section');
    if (group) {
      // The group's label, else its heading (not its whole text: a section may be long).
      const labelledBy = h
        .clean(group.getAttribute('aria-labelledby'))
        .split(' ')
        .map((id) => h.clean(document.getElementById(id)?.textContent))
        .join(' ');
      const heading = group.querySelector('h1, h2, h3, h4, h5, h6, [role="heading"]');
      parts.push(
        (
          h.clean(group.getAttribute('aria-label')) ||
          h.clean(labelledBy) ||
          h.clean(heading?.textContent)
        ).slice(0, 120),
      );
    }
    return h.clean(parts.filter(Boolean).join(' | '));
  };
  const formOf = (field: Element): string => {
    const form = field.closest('form, [role="form"]');
    if (!form) return '';
    return h.clean(`${h.clean(form.getAttribute('aria-label'))} ${headingBefore(form)}`);
  };

  const found: FieldFacts[] = [];
  const fields = Array.from(document.querySelectorAll('input, select, textarea')) as Array<
    HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement
  >;
  for (const field of fields) {
    if (found.length >= limit) break;
    const type =
      field instanceof HTMLInputElement ? (field.getAttribute('type') ?? '').toLowerCase() : '';
    if (field instanceof HTMLInputElement && !textTypes.has(type)) continue;
    if (field.disabled || ('readOnly' in field && field.readOnly)) continue;
    if (!h.isRendered(field) || h.isAriaHidden(field) || h.isVisuallyHidden(field)) continue;
    if (field.closest('[role="search"], search')) continue;
    found.push({
      selector: h.selectorOf(field),
      html: h.htmlOf(field),
      tag: field.localName,
      type: type || (field instanceof HTMLInputElement ? 'text' : ''),
      name: field.getAttribute('name') ?? '',
      id: field.id,
      autocomplete: field.getAttribute('autocomplete'),
      label: labelOf(field).slice(0, 200),
      group: groupOf(field).slice(0, 300),
      form: formOf(field).slice(0, 200),
    });
  }
  return found;
}

/**
 * Purposes from WCAG's list of input purposes (section 7 of WCAG 2.2), each with the words of a
 * label (en, de, fr, es, it, nl, pt) and of a field name that ask for it, most specific first: an
 * "e-mail address" is an e-mail, not an address.
 */
const purposes: ReadonlyArray<{ token: string; label: RegExp; name: RegExp; type?: string }> = [
  {
    token: 'email',
    type: 'email',
    label: /e-?mail|courriel|correo( electrónico)?|posta elettronica/i,
    name: /^(e-?mail|mail)(_?address)?$|email/i,
  },
  {
    token: 'tel',
    type: 'tel',
    label:
      /(tele)?phone|mobile( number)?|cell( number)?|telefon|handy(nummer)?|téléphone|portable|teléfono|móvil|celular|telefono|cellulare|telefoonnummer|mobiel|telemóvel/i,
    name: /^(tele)?phone|^tel$|^mobile|^cell|telefon/i,
  },
  {
    token: 'given-name',
    label:
      /first name|given name|forename|vorname|prénom|nombre de pila|^nombre$|^nome$|voornaam|primeiro nome/i,
    name: /^(first|given|fore)_?name$|^fname$|^vorname$|^prenom$/i,
  },
  {
    token: 'family-name',
    label:
      /last name|surname|family name|nachname|familienname|nom de famille|^nom$|apellidos?|cognome|achternaam|sobrenome|apelido/i,
    name: /^(last|family|sur)_?name$|^lname$|^surname$|^nachname$|^nom$/i,
  },
  {
    token: 'name',
    label:
      /^(your |full |my )?name$|full name|['’]s (full )?name$|^ihr name$|vollständiger name|nom complet|nombre completo|nome completo|volledige naam|^naam$/i,
    name: /^(full_?)?name$|^your_?name$/i,
  },
  {
    token: 'postal-code',
    label:
      /post(al)? ?code|zip( code)?|postleitzahl|^plz$|code postal|código postal|^cap$|postcode/i,
    name: /^(post(al)?_?code|zip(_?code)?|postcode|plz|zip)$/i,
  },
  {
    token: 'street-address',
    label:
      /street|(postal |home |billing |shipping |delivery )?address( line)?|straße|strasse|anschrift|adresse|dirección|domicilio|indirizzo|adres|morada|endereço/i,
    name: /^(street|address|addr)(_?(line)?_?1)?$|^street_?address$|^strasse$|^adresse$/i,
  },
  {
    token: 'address-level2',
    label:
      /^(town( or city)?|city( or town)?|your city|ort|wohnort|stadt|ville|ciudad|localidad|città|plaats|woonplaats|cidade|localidade)$/i,
    name: /^(city|town|ort|stadt|ville|ciudad)$/i,
  },
  {
    token: 'country-name',
    label: /^(your )?country|^land$|^pays$|^país$|^paese$|^nazione$/i,
    name: /^country(_?name)?$/i,
  },
  {
    token: 'bday',
    label:
      /date of birth|birth ?date|birthday|geburtsdatum|date de naissance|fecha de nacimiento|data di nascita|geboortedatum|data de nascimento/i,
    name: /^(bday|birthday|birth_?date|dob|date_?of_?birth)$/i,
  },
  {
    token: 'organization',
    label:
      /^(your )?(company|organi[sz]ation)( name)?$|^firma$|^unternehmen$|^entreprise$|^société$|^empresa$|^azienda$|^bedrijf(snaam)?$/i,
    name: /^(company|organi[sz]ation|org)(_?name)?$/i,
  },
];

/** Words that make a field clearly ask for the person filling in the form. */
const selfWords =
  /\b(your|yours|yourself|my|about you|dein|deine|deinen|deiner|votre|vos|tus?|tuyo|mis?|tuo|tua|vostro|vostra|uw|jouw|seu|sua|teu)\b/i;
/** German's formal "your" is told from "her" and "their" by its capital. */
const formalGermanYour = /\bIhre?[nrms]?\b/;
/** Words that point to someone else's data: then the criterion may not apply. */
const otherWords =
  /\b(friends?|recipients?|colleagues?|someone|somebody|other person|another person|emergency|next of kin|child(ren)?|kids?|partner|spouse|parents?|guardian|beneficiar(y|ies)|referee|reference|guests?|passengers?|attendees?|participants?|employees?|customers?|patients?|clients?|their|his|her|invite|gift|deliver(y|ed)? to|send to|share with|forward to|contact person|empfänger|freund(in)?|kontaktperson|destinataire|ami\(e\)|destinatario|amig[oa]|ontvanger)\b/i;

/** The input purpose a field asks for, from its type, label and name ('' when none is clear). */
export function purposeOf(field: Pick<FieldFacts, 'type' | 'label' | 'name' | 'id'>): {
  token: string;
  by: 'type' | 'label' | 'name';
} | null {
  for (const purpose of purposes) {
    if (purpose.type && field.type === purpose.type) return { token: purpose.token, by: 'type' };
  }
  const label = field.label
    .replace(/[*:()]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const purpose of purposes) {
    if (label && purpose.label.test(label)) return { token: purpose.token, by: 'label' };
  }
  // A field with a label that names no purpose asks for something else: its name is not read.
  if (label) return null;
  for (const purpose of purposes) {
    if (purpose.name.test(field.name) || purpose.name.test(field.id)) {
      return { token: purpose.token, by: 'name' };
    }
  }
  return null;
}

/** Runs the autocomplete check on the loaded page. */
export async function runAutocompleteChecks(page: Page): Promise<OwnCheckResult[]> {
  return autocompleteFindings(await readFields(page));
}

/**
 * Fields that ask for the user's own name, e-mail, phone, address, postal code, birthday or
 * organisation and do not say so with autocomplete (1.3.5, technique H98). A violation only when
 * the label or the form says the data is the user's own and nothing points to someone else's.
 */
export function autocompleteFindings(fields: readonly FieldFacts[]): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (const field of fields) {
    const value = field.autocomplete?.trim().toLowerCase();
    // A value names a purpose (axe checks that it is a valid one); "on" and "off" name none.
    if (value && value !== 'on' && value !== 'off') continue;
    const purpose = purposeOf(field);
    if (!purpose) continue;
    // A select's purpose is only read from its label (a "country" list is usually the user's).
    if (field.tag === 'select' && purpose.by !== 'label') continue;
    // Whose data: the label and its group's label decide; the form's heading can only doubt it.
    const labels = `${field.label} | ${field.group}`;
    const someoneElse = otherWords.test(`${labels} | ${field.form}`);
    const own =
      !someoneElse &&
      purpose.by !== 'name' &&
      (selfWords.test(labels) || formalGermanYour.test(labels));
    const shown = field.label || field.name || field.id;
    const missing =
      value === 'off'
        ? 'autocomplete="off" hides its purpose'
        : value === 'on'
          ? 'autocomplete="on" does not name its purpose'
          : 'it has no autocomplete attribute';
    const why = own
      ? 'its label says it is about the person filling it in'
      : someoneElse
        ? 'but the label or form may be about someone else, where 1.3.5 does not apply: check whose data it is'
        : purpose.by === 'name'
          ? 'it has no label, so its purpose is read from its name: check it, and whether it asks for the data of the person filling it in (1.3.5 applies only then)'
          : 'check that it asks for the data of the person filling it in (1.3.5 applies only then)';
    found.push(
      checkResult(
        checks,
        'autocomplete-missing',
        field,
        `The field "${shown.slice(0, 60)}" asks for ${purpose.token === 'tel' ? 'a phone number' : `the ${purpose.token}`} but ${missing}; add autocomplete="${purpose.token}" so browsers can fill it in and show its purpose; ${why}.`,
        {
          kind: own ? 'violation' : 'needs-review',
          details: {
            purpose: purpose.token,
            identifiedBy: purpose.by,
            label: field.label,
            group: field.group,
            autocomplete: field.autocomplete,
          },
        },
      ),
    );
  }
  return found;
}
