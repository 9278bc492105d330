/**
 * The keyboard walk's helper inside the page, installed once per walk as
 * `window.__conformlyKeyboard` and removed by its `cleanup()`.
 *
 * A keydown listener (window, capture phase, so it runs before the page's own handlers) notes
 * which element has focus when each key arrives: by then the previous Tab has moved focus and
 * the browser has scrolled the element into view. The first time an element is seen focused its
 * box, visibility and focused styles are measured; the first time focus has left it, its
 * unfocused styles, so each element is compared with itself focused and unfocused.
 *
 * Kept as source text, not a function: tsx and esbuild wrap named inner functions in a __name()
 * helper the page does not have (see element-facts.ts). `String.raw` keeps its backslashes.
 */
export const KEYBOARD_IN_PAGE = String.raw`(() => {
  const KEY = '__conformlyKeyboard';
  if (window[KEY]) window[KEY].cleanup();
  const FOCUSABLE =
    'a[href], area[href], button, input:not([type="hidden"]), select, textarea, iframe, summary, ' +
    '[tabindex], [contenteditable]:not([contenteditable="false"]), audio[controls], video[controls]';
  const INTERACTIVE = FOCUSABLE + ', label, option';
  const NATIVE_CONTROLS = 'a[href], area[href], button, input, select, textarea, summary';
  const KEY_ROLES = ['button', 'link', 'checkbox', 'switch', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem'];
  // Focus inside these is drawn where the page cannot look (another document, the browser's own
  // controls, an image map's picture): how it shows, and where Tab goes in them, is unknown.
  const OPAQUE = ['iframe', 'frame', 'object', 'embed', 'video', 'audio', 'details', 'area'];
  // A custom element without an open shadow root may draw focus inside a closed one.
  const isOpaque = (el) =>
    OPAQUE.includes(el.localName) || (el.localName.includes('-') && !el.shadowRoot);
  const STYLE_PROPS = [
    'outline-style', 'outline-width', 'outline-color', 'outline-offset', 'box-shadow',
    'border-top', 'border-right', 'border-bottom', 'border-left', 'background-color',
    'background-image', 'color', 'text-decoration', 'opacity', 'transform', 'filter',
    'text-shadow', 'font-weight', 'visibility',
  ];
  const PSEUDO_PROPS = STYLE_PROPS.concat(['content', 'width', 'height', 'display']);
  // A container shows focus-within with a frame or a fill.
  const CONTAINER_PROPS = STYLE_PROPS.slice(0, 11);
  const TEXT_INPUTS = ['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date',
    'datetime-local', 'month', 'week', 'time'];

  // Focus scrolls the page instantly during the walk, so what is measured is where focus ends up
  // (a smooth-scrolling page would still be on its way). Taken out again by cleanup().
  const instant = document.createElement('style');
  instant.textContent = '*, *::before, *::after { scroll-behavior: auto !important; }';
  (document.head || document.documentElement).appendChild(instant);
  const els = [];
  const info = [];
  const ids = new WeakMap();
  const start = { x: window.scrollX, y: window.scrollY, href: location.href };
  const originalFocus = document.activeElement;
  let log = [];
  /** Records measured or completed since the last read. */
  const changed = new Set();
  let last = -1;

  const deepActive = () => {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) {
      active = active.shadowRoot.activeElement;
    }
    if (!active || active === document.body || active === document.documentElement) return null;
    return active;
  };
  const idOf = (el) => {
    let id = ids.get(el);
    if (id === undefined) {
      id = els.length;
      ids.set(el, id);
      els.push(el);
      info.push(null);
    }
    return id;
  };
  const cssId = (id) => (window.CSS && CSS.escape ? CSS.escape(id) : id);
  const selectorOf = (el) => {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && node.ownerDocument.querySelectorAll('#' + cssId(node.id)).length === 1) {
        parts.unshift('#' + cssId(node.id));
        break;
      }
      const tag = node.localName;
      if (tag === 'html' || tag === 'body') {
        parts.unshift(tag);
        if (tag === 'html') break;
        continue;
      }
      const parent = node.parentElement;
      let part = tag;
      if (parent) {
        const same = Array.from(parent.children).filter((child) => child.localName === tag);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const htmlOf = (el) => {
    const html = el.outerHTML || '';
    return html.length > 300 ? html.slice(0, 300) + '...' : html;
  };
  const isFocusable = (el) => {
    try {
      return el.matches(FOCUSABLE) && !el.disabled;
    } catch (e) {
      return false;
    }
  };
  /** Chromium gives an editable region tabIndex -1, yet Tab stops on it. */
  const tabIndexOf = (el) =>
    el.isContentEditable && !el.hasAttribute('tabindex') ? 0 : el.tabIndex;
  const isVisible = (el) =>
    el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : el.getClientRects().length > 0;
  const modal = () => {
    try {
      return document.querySelector(':modal');
    } catch (e) {
      return null;
    }
  };
  /** What Tab should reach, guessed from the DOM: only to tell a trap from the whole page. */
  const isTabbable = (el, inModal) =>
    isFocusable(el) && tabIndexOf(el) >= 0 && isVisible(el) && !el.closest('[inert]') &&
    (!inModal || inModal.contains(el)) &&
    !(el.localName === 'summary' && el.parentElement && el.parentElement.localName === 'details' &&
      el.parentElement.querySelector('summary') !== el);
  const tabbables = () => {
    const inModal = modal();
    return Array.from(document.querySelectorAll(FOCUSABLE)).filter((el) => isTabbable(el, inModal));
  };

  const finishTransitions = (el) => {
    if (!el.getAnimations) return;
    for (const animation of el.getAnimations({ subtree: true })) {
      try {
        if (window.CSSTransition && animation instanceof CSSTransition) animation.finish();
      } catch (e) {
        // An animation that cannot finish keeps its current frame.
      }
    }
  };
  const transparent = (color) => color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);
  const signature = (el, pseudo, container) => {
    const style = getComputedStyle(el, pseudo);
    if (pseudo && (style.content === 'none' || style.content === 'normal')) return 'none';
    const props = pseudo ? PSEUDO_PROPS : container ? CONTAINER_PROPS : STYLE_PROPS;
    const values = props.map((prop) => style.getPropertyValue(prop));
    // An outline that draws nothing is no outline (outline: 0, none, or transparent).
    if (values[0] === 'none' || values[1] === '0px' || transparent(values[2])) {
      values[0] = values[1] = values[2] = values[3] = 'none';
    }
    return values.join('|');
  };
  const boxOf = (el) => {
    let rect = el.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2) {
      // An inline link around a block (an image, a card) has its size in its children.
      let union = null;
      for (const child of Array.from(el.querySelectorAll('*')).slice(0, 20)) {
        const r = child.getBoundingClientRect();
        if (r.width < 2 || r.height < 2) continue;
        union = union
          ? { left: Math.min(union.left, r.left), top: Math.min(union.top, r.top),
              right: Math.max(union.right, r.right), bottom: Math.max(union.bottom, r.bottom) }
          : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }
      if (union) rect = { left: union.left, top: union.top, width: union.right - union.left,
        height: union.bottom - union.top, right: union.right, bottom: union.bottom };
    }
    return rect;
  };
  /** The parts whose look may show focus: the element itself, and what sits next to it. */
  const relatedOf = (el, hidden) => {
    const parts = [
      { el, pseudo: null, self: true },
      { el, pseudo: '::before', self: true },
      { el, pseudo: '::after', self: true },
    ];
    const add = (other, self, pseudos, container) => {
      if (!other || other === document.body || other === document.documentElement) return;
      if (parts.some((part) => part.el === other) || isFocusable(other)) return;
      parts.push({ el: other, pseudo: null, self, container });
      if (pseudos) {
        parts.push({ el: other, pseudo: '::before', self });
        parts.push({ el: other, pseudo: '::after', self });
      }
    };
    for (const child of Array.from(el.querySelectorAll('*')).slice(0, 4)) add(child, true, false);
    // A card or field wrapper often shows :focus-within a few levels up.
    let up = el.parentElement;
    for (let level = 0; up && level < 4; level++, up = up.parentElement) add(up, false, false, true);
    // Custom checkboxes and radios draw focus on a neighbour or label, often in a pseudo-element.
    const neighbours = hidden || el.localName === 'input';
    add(el.previousElementSibling, false, neighbours);
    add(el.nextElementSibling, false, neighbours);
    for (const label of Array.from(el.labels || []).slice(0, 3)) add(label, false, true);
    return parts;
  };
  const signatures = (parts) => {
    for (const part of parts) if (!part.pseudo) finishTransitions(part.el);
    return parts.map((part) => {
      let sig = signature(part.el, part.pseudo, part.container);
      if (part.el === parts[0].el && !part.pseudo) {
        const r = part.el.getBoundingClientRect();
        sig += '|' + [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]
          .map(Math.round).join(',');
      }
      return sig;
    });
  };
  const clippedOut = (el, rect) => {
    const area = (r) => Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);
    let visible = { left: rect.left, top: rect.top, right: rect.left + rect.width, bottom: rect.top + rect.height };
    for (let node = el; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.opacity === '0') return 'transparent';
      const clip = /rect\(([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px\)/.exec(style.clip);
      if (clip && style.position === 'absolute' || clip && style.position === 'fixed') {
        if (Number(clip[2]) - Number(clip[4]) <= 1 || Number(clip[3]) - Number(clip[1]) <= 1) return 'clipped';
      }
      if (/^inset\((50|100)%\)$/.test(style.clipPath)) return 'clipped';
      if (node !== el && style.overflow !== 'visible') {
        const r = node.getBoundingClientRect();
        visible = { left: Math.max(visible.left, r.left), top: Math.max(visible.top, r.top),
          right: Math.min(visible.right, r.right), bottom: Math.min(visible.bottom, r.bottom) };
        if (area(visible) < 4) return 'clipped';
      }
    }
    return null;
  };
  const hitsAtCenter = (el, rect) => {
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
  };
  const hiddenReason = (el, rect) => {
    if (rect.width < 2 || rect.height < 2) {
      // An image still loading (lazy, just scrolled to) has no size yet: not known to be hidden.
      const loading = Array.from(el.querySelectorAll('img')).some((img) => !img.complete);
      return loading ? null : 'zero-size';
    }
    const clipped = clippedOut(el, rect);
    // An absolutely placed element can escape an ancestor's overflow: believe the hit test.
    if (clipped === 'transparent' || (clipped && !hitsAtCenter(el, rect))) return clipped;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    if (rect.left + rect.width <= 0 || rect.top + rect.height <= 0 || rect.left >= vw || rect.top >= vh) {
      return 'off-screen';
    }
    return null;
  };
  /** Fixed and sticky layers, found once: only they can cover an element focus scrolled to. */
  const findLayers = () => Array.from(document.body ? document.body.getElementsByTagName('*') : [])
    .slice(0, 5000)
    .filter((node) => {
      const position = getComputedStyle(node).position;
      return position === 'fixed' || position === 'sticky';
    });
  const layers = findLayers();
  const overlaps = (a, b) =>
    a.left < b.right && b.left < a.left + a.width && a.top < b.bottom && b.top < a.top + a.height;
  const obscured = (el, rect, among = layers) => {
    // Hit tests are dear on large pages: only where a layer lies over the element's box.
    if (!among.some((layer) => !layer.contains(el) && overlaps(rect, layer.getBoundingClientRect()))) {
      return null;
    }
    const left = Math.max(rect.left, 0);
    const top = Math.max(rect.top, 0);
    const right = Math.min(rect.left + rect.width, window.innerWidth);
    const bottom = Math.min(rect.top + rect.height, window.innerHeight);
    if (right - left < 1 || bottom - top < 1) return null;
    const points = [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];
    let cover = null;
    for (const [fx, fy] of points) {
      const hit = document.elementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
      cover = hit;
    }
    return cover ? selectorOf(cover) : null;
  };
  const isEditable = (el) =>
    el.isContentEditable || el.localName === 'textarea' ||
    (el.localName === 'input' && TEXT_INPUTS.includes((el.getAttribute('type') || 'text').toLowerCase()));

  const inFixedLayer = (el) => {
    for (let node = el; node && node !== document.documentElement; node = node.parentElement) {
      const position = getComputedStyle(node).position;
      if (position === 'fixed' || position === 'sticky') return true;
    }
    return false;
  };
  const measure = (el) => {
    const rect = boxOf(el);
    const hidden = isOpaque(el) ? null : hiddenReason(el, rect);
    const parts = relatedOf(el, !!hidden);
    const focused = signatures(parts);
    return {
      el, parts, focused,
      selector: selectorOf(el),
      html: htmlOf(el),
      tag: el.localName,
      opaque: isOpaque(el),
      editable: isEditable(el),
      tabindex: el.getAttribute('tabindex'),
      box: { x: Math.round(rect.left + window.scrollX), y: Math.round(rect.top + window.scrollY),
        width: Math.round(rect.width), height: Math.round(rect.height) },
      fixed: inFixedLayer(el),
      ariaHidden: !!el.closest('[aria-hidden="true"]'),
      hidden,
      coveredBy: hidden ? null : obscured(el, rect),
      selfChange: null,
      otherChange: null,
    };
  };
  // Any CSS colour (rgb, hsl, oklch, named) as sRGB bytes and alpha, painted on a 1-pixel canvas.
  const paint = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const parseRgb = (value) => {
    if (value === 'transparent' || /^rgba\((?:[^,]*,){3}\s*0\)$|\/\s*0\)$/.test(value)) return [0, 0, 0, 0];
    if (!paint || /gradient|url\(|var\(/.test(value)) return null;
    paint.clearRect(0, 0, 1, 1);
    paint.fillStyle = '#000';
    paint.fillStyle = value;
    paint.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = paint.getImageData(0, 0, 1, 1).data;
    return a === 0 ? [0, 0, 0, 0] : [r, g, b, a / 255];
  };
  // The solid colour behind an element, blending translucent backgrounds down to the first opaque
  // one (the canvas is white); null where an image, a gradient, opacity or a colour this cannot
  // read decides what is seen.
  const backdropOf = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none' || Number(style.opacity) < 1) return null;
      const colour = parseRgb(style.backgroundColor);
      if (!colour) return null;
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    let base = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) {
      const [r, g, b, a] = layers[i];
      base = [r * a + base[0] * (1 - a), g * a + base[1] * (1 - a), b * a + base[2] * (1 - a)];
    }
    return base;
  };
  // Whether something that is not the element's ancestor or part of it paints where the element
  // is (a positioned backdrop layer, a background picture): then ancestors do not say what is seen.
  const paintedBehind = (el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    // Out of view nothing can be probed: unknown, so not judged.
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
    for (const other of document.elementsFromPoint(x, y)) {
      if (other === el || other.contains(el) || el.contains(other)) continue;
      const style = getComputedStyle(other);
      if (style.backgroundImage !== 'none' || (parseRgb(style.backgroundColor) || [0, 0, 0, 0])[3] > 0) return true;
    }
    return false;
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => { const v = c / 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  const over = (colour, behind) => {
    const [r, g, b, a] = colour;
    return [r * a + behind[0] * (1 - a), g * a + behind[1] * (1 - a), b * a + behind[2] * (1 - a)];
  };
  const ratio = (a, b) => Math.round(contrast(a, b) * 100) / 100;
  // Splits a computed list (box-shadow) at its top-level commas, not those inside rgb().
  const splitList = (value) => {
    const items = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === '(') depth++;
      else if (value[i] === ')') depth--;
      else if (value[i] === ',' && depth === 0) {
        items.push(value.slice(start, i).trim());
        start = i + 1;
      }
    }
    items.push(value.slice(start).trim());
    return items;
  };
  // Computed shadows read "rgb(r, g, b) x y blur spread [inset]".
  const parseShadow = (text) => {
    const colour = /^(rgba?\([^)]*\)|color\([^)]*\)|oklch\([^)]*\)|lab\([^)]*\))/.exec(text);
    if (!colour) return null;
    const rest = text.slice(colour[0].length).trim().split(/\s+/);
    const inset = rest.includes('inset');
    const [x, y, blur, spread] = rest.filter((part) => part !== 'inset').map(parseFloat);
    return { colour: parseRgb(colour[1]), x: x || 0, y: y || 0, blur: blur || 0, spread: spread || 0, inset };
  };
  // Computed borders read "1px solid rgb(r, g, b)".
  const parseBorder = (text) => {
    const match = /^([\d.]+)px (\w+) (.*)$/.exec(text);
    if (!match) return null;
    const none = match[2] === 'none' || match[2] === 'hidden';
    return { width: none ? 0 : parseFloat(match[1]), style: match[2], colour: parseRgb(match[3]) };
  };
  const rectArea = (a) => Math.max(0, a[2] - a[0]) * Math.max(0, a[3] - a[1]);
  const overlapArea = (a, b) => rectArea([Math.max(a[0], b[0]), Math.max(a[1], b[1]),
    Math.min(a[2], b[2]), Math.min(a[3], b[3])]);
  // Indices into a signature (STYLE_PROPS, then the box).
  const OUTLINE = [0, 1, 2, 3];
  const SHADOW = 4;
  const BORDERS = [5, 6, 7, 8];
  const BACKGROUND = 9;
  const COLOUR = 11;
  const DECORATION = 12;
  const JUDGED = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12];

  /**
   * How the change focus makes on the element itself stands out, when nothing else changed: each
   * changed part (outline, box-shadow, border, background, text colour, underline) as the colour
   * its pixels have unfocused and focused, their contrast, its thickness and area in CSS px, and
   * the area a 2 CSS px perimeter of the element has (2.4.13). { undecided } where styles cannot
   * say what is seen (an image or gradient behind, translucent layers, a blurred shadow); null
   * where focus changes something these parts do not describe (size, transform, a font).
   */
  const focusIndicator = (el, focusedSig, nowSig) => {
    const focused = focusedSig.split('|');
    const now = nowSig.split('|');
    if (focused.length !== now.length) return null;
    for (let i = 0; i < focused.length; i++) {
      if (focused[i] !== now[i] && !JUDGED.includes(i)) return null;
    }
    const [, , width, height] = focused[focused.length - 1].split(',').map(Number);
    if (!(width > 0 && height > 0)) return null;
    const outside = el.parentElement ? backdropOf(el.parentElement) : [255, 255, 255];
    const inside = backdropOf(el);
    const painted = paintedBehind(el);
    const undecided = (reason) => ({ undecided: reason, required: 4 * (width + height) });
    if (!outside || !inside || painted) return undecided('a background image, gradient, translucent layer or element behind');
    const segments = [];
    const add = (part, before, after, thickness, area, extra) => {
      segments.push(Object.assign({ part, before: hex(before), after: hex(after),
        contrast: ratio(before, after), thickness: Math.round(thickness * 100) / 100,
        area: area === null ? null : Math.round(area) }, extra || {}));
    };
    // Outline: drawn where there was none, or recoloured at the same width and place.
    if (OUTLINE.some((i) => focused[i] !== now[i])) {
      if (focused[0] === 'none' || focused[0] === 'auto') return null;
      const w = parseFloat(focused[1]);
      const offset = parseFloat(focused[3]) || 0;
      const colour = parseRgb(focused[2]);
      if (!colour || !(w > 0)) return null;
      const behind = offset + w <= 0 ? inside : outside;
      let before = behind;
      if (now[0] !== 'none') {
        const was = parseRgb(now[2]);
        if (!was || now[1] !== focused[1] || now[3] !== focused[3]) return null;
        before = over(was, behind);
      }
      const o = offset;
      const area = (width + 2 * (o + w)) * (height + 2 * (o + w)) - (width + 2 * o) * (height + 2 * o);
      add('outline', before, over(colour, behind), w, area, { style: focused[0] });
    }
    // Box-shadow: drawn where there was none; a blurred one fades, so its pixels decide.
    if (focused[SHADOW] !== now[SHADOW]) {
      if (focused[SHADOW] === 'none' || now[SHADOW] !== 'none') return null;
      const shadows = splitList(focused[SHADOW]).map(parseShadow);
      if (shadows.some((s) => !s || !s.colour)) return null;
      if (shadows.some((s) => s.blur > 0)) return undecided('a blurred box-shadow');
      for (const s of shadows) {
        if (s.colour[3] === 0) continue;
        const box = [0, 0, width, height];
        if (s.inset) {
          const hole = [s.x + s.spread, s.y + s.spread, width + s.x - s.spread, height + s.y - s.spread];
          const area = rectArea(box) - overlapArea(box, hole);
          add('box-shadow', inside, over(s.colour, inside), Math.max(0, s.spread + Math.max(Math.abs(s.x), Math.abs(s.y))), area, { inset: true });
        } else {
          const shade = [s.x - s.spread, s.y - s.spread, width + s.x + s.spread, height + s.y + s.spread];
          const area = rectArea(shade) - overlapArea(shade, box);
          add('box-shadow', outside, over(s.colour, outside), Math.max(0, s.spread + Math.max(Math.abs(s.x), Math.abs(s.y))), area);
        }
      }
    }
    // Borders: recoloured, or thicker without moving the box (box-sizing: border-box).
    for (const i of BORDERS) {
      if (focused[i] === now[i]) continue;
      const after = parseBorder(focused[i]);
      const was = parseBorder(now[i]);
      if (!after || !was || !after.colour || !was.colour) return null;
      if (after.width <= 0) continue;
      const side = i === 5 || i === 7 ? width : height;
      const afterSeen = over(after.colour, inside);
      if (was.width > 0 && after.style === was.style) {
        add('border', over(was.colour, inside), afterSeen, Math.min(was.width, after.width), side * Math.min(was.width, after.width));
      }
      const grown = after.width - (after.style === was.style ? was.width : 0);
      if (grown > 0) add('border', inside, afterSeen, grown, side * grown);
    }
    // Background: the whole box changes colour.
    if (focused[BACKGROUND] !== now[BACKGROUND]) {
      const after = parseRgb(focused[BACKGROUND]);
      const was = parseRgb(now[BACKGROUND]);
      if (!after || !was) return null;
      add('background', over(was, outside), over(after, outside), Math.min(width, height), width * height);
    }
    // Text colour: its glyphs change; how many pixels they cover is not known from styles.
    if (focused[COLOUR] !== now[COLOUR]) {
      const after = parseRgb(focused[COLOUR]);
      const was = parseRgb(now[COLOUR]);
      if (!after || !was) return null;
      const behind = over(parseRgb(focused[BACKGROUND]) || [0, 0, 0, 0], outside);
      add('text colour', over(was, behind), over(after, behind), 0, null, { thicknessKnown: false });
    }
    // An underline drawn where there was none, or recoloured (with the text, as currentColor).
    if (focused[DECORATION] !== now[DECORATION]) {
      const line = (value) => /underline|overline|line-through/.test(value);
      const COLOUR_IN = /(rgba?\([^)]*\)|color\([^)]*\)|oklch\([^)]*\)|lab\([^)]*\))/;
      const colourOf = (value, text) => {
        const named = COLOUR_IN.exec(value);
        return parseRgb(named ? named[1] : text);
      };
      const shape = (value) => value.replace(COLOUR_IN, '').trim();
      if (!line(focused[DECORATION])) return null;
      const recoloured = line(now[DECORATION]);
      if (recoloured && shape(now[DECORATION]) !== shape(focused[DECORATION])) return null;
      const colour = colourOf(focused[DECORATION], focused[COLOUR]);
      const was = recoloured ? colourOf(now[DECORATION], now[COLOUR]) : [0, 0, 0, 0];
      if (!colour || !was) return null;
      const style = getComputedStyle(el);
      const given = /px$/.test(style.textDecorationThickness) ? parseFloat(style.textDecorationThickness) : null;
      const fontSize = parseFloat(style.fontSize) || 16;
      // A font's own underline is about a tenth of its size; taken generously (a fifth) for area.
      const thickness = given !== null ? given : fontSize / 10;
      const behind = over(parseRgb(focused[BACKGROUND]) || [0, 0, 0, 0], outside);
      add('underline', over(was, behind), over(colour, behind), thickness, width * (given !== null ? given : fontSize / 5),
        given === null ? { thicknessKnown: false } : {});
    }
    if (segments.length === 0) return null;
    return { segments, required: 4 * (width + height), undecided: null, pixels: false };
  };
  const unfocused = (id) => {
    const record = info[id];
    if (!record || record.selfChange !== null || !record.el.isConnected) return;
    if (deepActive() === record.el) return;
    const now = signatures(record.parts);
    changed.add(id);
    record.selfChange = false;
    record.otherChange = false;
    record.changed = [];
    const onlySelf = now.every((sig, i) => i === 0 || sig === record.focused[i]);
    record.indicator =
      onlySelf && now[0] !== record.focused[0]
        ? focusIndicator(record.el, record.focused[0], now[0])
        : null;
    now.forEach((sig, i) => {
      if (sig === record.focused[i]) return;
      const part = record.parts[i];
      if (part.self) record.selfChange = true;
      else record.otherChange = true;
      if (record.changed.length < 4) {
        record.changed.push((part.el === record.el ? 'element' : selectorOf(part.el)) + (part.pseudo || ''));
      }
    });
  };
  const observe = () => {
    const active = deepActive();
    const id = active ? idOf(active) : -1;
    if (id >= 0 && !info[id]) {
      info[id] = measure(active);
      changed.add(id);
    }
    if (last >= 0 && last !== id) unfocused(last);
    last = id;
    return id;
  };
  const onKey = (event) => {
    if (!event.isTrusted) return;
    log.push(observe());
  };
  window.addEventListener('keydown', onKey, true);

  const api = {
    /** Focus before each key since the last read, and focus now. */
    read: () => {
      const now = observe();
      const seen = log;
      log = [];
      const updates = Array.from(changed).map((id) => [id, plain(info[id])]);
      changed.clear();
      return { seen, now, updates };
    },
    /** The tabbable elements the DOM suggests, as ids in DOM order. */
    candidates: () => tabbables().map(idOf),
    /**
     * Whether these elements all sit in an open dialog or a fixed overlay (a cookie wall): they
     * keep focus on purpose, and their own buttons are the way out.
     */
    inDialog: (list) => list.length > 0 && list.every((id) => {
      const el = els[id];
      return !!el && (inFixedLayer(el) ||
        !!el.closest('dialog[open], [role="dialog"], [role="alertdialog"], [aria-modal="true"]'));
    }),
    /** Focuses the first tabbable element after all of these, to walk on past a trap. */
    focusAfter: (list) => {
      const within = list.map((id) => els[id]).filter(Boolean);
      const next = tabbables().find((el) => !within.includes(el) && within.every((w) =>
        !w.contains(el) && (w.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)));
      if (!next) return -1;
      next.focus();
      return idOf(next);
    },
    focus: (id) => {
      const el = els[id];
      if (!el) return false;
      el.focus();
      return deepActive() === el;
    },
    /**
     * For a pixel read: the element unfocused (scrolled to the middle of the viewport) or focused
     * again, transitions finished; its box in document coordinates, or null when it is gone or
     * does not take focus.
     */
    pixelState: (id, focus, m) => {
      const el = els[id];
      if (!el || !el.isConnected) return null;
      if (focus) {
        el.focus({ preventScroll: true });
        if (deepActive() !== el) return null;
      } else {
        const active = document.activeElement;
        if (active && active.blur) active.blur();
        el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      }
      finishTransitions(el);
      if (el.parentElement) finishTransitions(el.parentElement);
      const r = el.getBoundingClientRect();
      // The screenshots must show the element and its margin m, with nothing laid over them.
      const around = { left: r.left - m, top: r.top - m, width: r.width + 2 * m, height: r.height + 2 * m };
      if (around.left < 0 || around.top < 0 || r.right + m > window.innerWidth || r.bottom + m > window.innerHeight) return null;
      if (layers.some((layer) => !layer.contains(el) && overlaps(around, layer.getBoundingClientRect()))) return null;
      if (!hitsAtCenter(el, r)) return null;
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
    },
    /** Each id's position in document order. */
    domOrder: (list) => {
      const sorted = list.filter((id) => els[id] && els[id].isConnected).slice().sort((a, b) =>
        els[a] === els[b] ? 0 : els[a].compareDocumentPosition(els[b]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
      return list.map((id) => sorted.indexOf(id));
    },
    /** A same-page link among the first tab stops that offers to skip a block. */
    skipLink: (first) => {
      for (const id of first) {
        const el = els[id];
        if (!el || el.localName !== 'a') continue;
        const href = el.getAttribute('href') || '';
        if (!/^#[^#]/.test(href) || (el.target && el.target !== '_self') || el.hasAttribute('download')) continue;
        const text = ((el.getAttribute('aria-label') || '') + ' ' + el.textContent).replace(/\s+/g, ' ').trim();
        const fragment = decodeURIComponent(href.slice(1));
        const target = document.getElementById(fragment) || document.getElementsByName(fragment)[0] || null;
        // Only a link that says it skips: an in-page menu link is not promised to move focus.
        if (!/skip|jump to|main content|to content|zum inhalt|contenu|contenido|contenuto|inhoud/i.test(text)) continue;
        return { id, href, text: text.slice(0, 80), targetFound: !!target,
          targetSelector: target ? selectorOf(target) : null };
      }
      return null;
    },
    /** Whether focus (or the next Tab stop) is now at or after the skip link's target. */
    skipReached: (targetSelector) => {
      const target = document.querySelector(targetSelector);
      const active = deepActive();
      if (target && !active) {
        // Out of the page after the target: right when nothing after it takes focus.
        const after = tabbables().some((el) =>
          target.contains(el) || !!(target.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
        return { reached: !after, active: null };
      }
      if (!target || !active) return { reached: false, active: active ? selectorOf(active) : null };
      const reached = target === active || target.contains(active) ||
        !!(target.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING);
      return { reached, active: selectorOf(active) };
    },
    restoreUrl: () => {
      if (location.href !== start.href) history.replaceState(history.state, '', start.href);
    },
    /** The measured elements, for findings. */
    report: () => {
      unfocusLast();
      return records();
    },
    /** Controls a mouse can use that Tab did not reach; accesskeys; positive tabindex values. */
    /**
     * Elements with a control's role that take focus but are not native controls: Enter and
     * Space do nothing on them unless a script listens for keys. For keyListeners() below.
     */
    roleControls: () =>
      Array.from(document.querySelectorAll('[role][tabindex]')).filter((el) => {
        const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
        return KEY_ROLES.includes(role) && isFocusable(el) && el.tabIndex >= 0 && !el.matches(NATIVE_CONTROLS) &&
          isVisible(el) && !el.closest('[inert], [aria-disabled="true"]');
      }).slice(0, 50),
    ownListener: onKey,
    describe: (el) => ({ selector: selectorOf(el), html: htmlOf(el),
      role: (el.getAttribute('role') || '').trim().split(/\s+/)[0], tabindex: el.getAttribute('tabindex') }),
    /**
     * Focuses each element again (the page now narrow: 320 px) and says which are then covered
     * entirely by a fixed or sticky layer: [id, covering selector] pairs. Nothing to do, and no
     * focus moved, on a page without such layers at this width.
     */
    obscuredNow: (ids) => {
      const found = [];
      const narrowLayers = findLayers();
      if (narrowLayers.length === 0) return found;
      for (const id of ids.slice(0, 200)) {
        const el = els[id];
        if (!el || !el.isConnected || isOpaque(el) || !el.focus) continue;
        el.focus();
        if (deepActive() !== el) continue;
        const rect = boxOf(el);
        if (hiddenReason(el, rect)) continue;
        const cover = obscured(el, rect, narrowLayers);
        if (cover) found.push([id, cover]);
      }
      const active = deepActive();
      if (active && active.blur) active.blur();
      return found;
    },
    /**
     * Whether the page may put a fixed or sticky layer over content at some width: it has one
     * now, or a readable style sheet's media rule sets position fixed or sticky.
     */
    mayHaveLayers: () => {
      if (layers.length > 0) return true;
      for (const sheet of Array.from(document.styleSheets)) {
        let rules;
        try {
          rules = sheet.cssRules;
        } catch (e) {
          // A cross-origin sheet cannot be read: it may hold one.
          return true;
        }
        for (const rule of Array.from(rules || [])) {
          if (rule.media && /position\s*:\s*(fixed|sticky)/i.test(rule.cssText)) return true;
        }
      }
      return false;
    },
    statics: (reachedIds, complete) => {
      const reached = reachedIds.map((id) => els[id]).filter(Boolean);
      const wasReached = (el) => reached.some((r) => r === el || el.contains(r) || r.contains(el));
      const inModal = modal();
      const COMPOSITES = ['toolbar', 'menubar', 'menu', 'tablist', 'listbox', 'grid', 'tree',
        'treegrid', 'radiogroup'].map((r) => '[role="' + r + '"]').join(', ');
      const WIDGETS = ['button', 'link', 'checkbox', 'switch', 'slider', 'spinbutton', 'searchbox',
        'textbox', 'combobox', 'radio'];
      const mouseOnly = [];
      const all = Array.from(document.body ? document.body.querySelectorAll('*') : []).slice(0, 5000);
      for (const el of all) {
        if (mouseOnly.length >= 50) break;
        // Content hidden from assistive technology and kept out of the tab order is a duplicate
        // (a card's image link beside its text link): hidden on purpose from both.
        if (el.closest('[inert], [aria-disabled="true"], [aria-hidden="true"]') ||
          (inModal && !inModal.contains(el))) continue;
        const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
        const focusable = isFocusable(el);
        const tabbableNow = focusable && tabIndexOf(el) >= 0;
        const reachable = complete ? wasReached(el) : tabbableNow;
        if (reachable || tabbableNow) continue;
        const inControl = el.parentElement && el.parentElement.closest(INTERACTIVE);
        const hasTabbable = Array.from(el.querySelectorAll(FOCUSABLE)).some((d) => tabIndexOf(d) >= 0 && !d.disabled);
        if (inControl || hasTabbable) continue;
        // Items of a composite widget are reached with arrow keys once Tab is in it.
        const composite = el.parentElement && el.parentElement.closest(COMPOSITES);
        if (composite && (composite.tabIndex >= 0 ||
          Array.from(composite.querySelectorAll(FOCUSABLE)).some((d) => tabIndexOf(d) >= 0))) continue;
        const widget = WIDGETS.includes(role);
        const style = getComputedStyle(el);
        const parentCursor = el.parentElement ? getComputedStyle(el.parentElement).cursor : 'auto';
        const pointer = style.cursor === 'pointer' && parentCursor !== 'pointer';
        const onclick = el.hasAttribute('onclick') || typeof el.onclick === 'function';
        if (!widget && !pointer && !onclick) continue;
        if (el.matches(INTERACTIVE) && !focusable) continue;
        if (!isVisible(el)) continue;
        const rect = el.getBoundingClientRect();
        if (rect.width < 4 || rect.height < 4) continue;
        mouseOnly.push({ selector: selectorOf(el), html: htmlOf(el), role: widget ? role : null,
          pointer, onclick, tabindex: el.getAttribute('tabindex') });
      }
      const byKey = new Map();
      for (const el of Array.from(document.querySelectorAll('[accesskey]')).slice(0, 500)) {
        // A key on something not shown (the other of a mobile and a desktop menu) clashes with nothing.
        if (!isVisible(el)) continue;
        const keys = (el.getAttribute('accesskey') || '').trim().toLowerCase().split(/\s+/).filter(Boolean);
        for (const key of new Set(keys)) {
          if (!byKey.has(key)) byKey.set(key, []);
          byKey.get(key).push(el);
        }
      }
      const accesskeys = [];
      for (const [key, list] of byKey) {
        if (list.length < 2) continue;
        for (const el of list.slice(1)) {
          accesskeys.push({ key, selector: selectorOf(el), html: htmlOf(el), first: selectorOf(list[0]) });
        }
      }
      return { mouseOnly, accesskeys: accesskeys.slice(0, 50) };
    },
    cleanup: () => {
      window.removeEventListener('keydown', onKey, true);
      const active = deepActive();
      if (active && active.blur) active.blur();
      if (originalFocus && originalFocus !== document.body && originalFocus.focus && originalFocus.isConnected) {
        originalFocus.focus({ preventScroll: true });
      }
      window.scrollTo(start.x, start.y);
      instant.remove();
      delete window[KEY];
    },
  };
  const plain = (record) => {
    if (!record) return null;
    const { el: _el, parts: _parts, focused: _focused, ...rest } = record;
    return rest;
  };
  const records = () => info.map(plain);
  const unfocusLast = () => {
    const active = deepActive();
    if (active && active.blur) active.blur();
    if (last >= 0) unfocused(last);
    last = -1;
  };
  Object.defineProperty(window, KEY, { value: api, configurable: true, enumerable: false });
  // Start from the top of the document with nothing focused: Tab then goes to the first stop.
  if (originalFocus && originalFocus !== document.body && originalFocus.blur) originalFocus.blur();
  window.scrollTo(0, 0);
  return api.candidates();
})()`;
