// rules.js: "How to play": the rules pages of docs/rules/, built into the
// binary and served as rules/<page>.md, shown in a panel beside the board,
// opened at the section of the game being played. Knows no game: the page
// of a variant comes from the table of docs/rules/README.md, its section
// from the page's headings (one naming the variant, as `brax-hunt`), and
// the text from the page itself (rendered by markdown.js).
// It may reach only its own panel (built here), the #how-to-play button
// and the variant the app shows (window.denham.layout, read-only); nothing
// of app.js, board.js or session.js.

import { renderMarkdown } from './markdown.js';

const pages = new Map(); // page name -> its text
let variantPages = null; // variant -> {page, what}
let panel = null;
let opener = null;

async function fetchPage(page) {
  if (!pages.has(page)) {
    const r = await fetch(`rules/${encodeURIComponent(page)}`);
    if (!r.ok) throw new Error(`no rules page ${page} (${r.status})`);
    pages.set(page, await r.text());
  }
  return pages.get(page);
}

// The README's table: rows naming variants in code (`brax-3p`, `brax-4p`)
// and a page ([brax.md](brax.md): what it holds).
async function loadIndex() {
  if (variantPages) return variantPages;
  const map = new Map();
  for (const line of (await fetchPage('README.md')).split('\n')) {
    const m = /^\|([^|]*)\|\s*\[[^\]]*\]\(([\w-]+\.md)\)\s*:?\s*([^|]*)\|/.exec(line);
    if (!m) continue;
    for (const v of m[1].matchAll(/`([^`]+)`/g)) map.set(v[1].toLowerCase(), { page: m[2], what: m[3].trim() });
  }
  variantPages = map;
  return map;
}

// Links within the rules: another page (brax.md, brax.md#x) or a heading
// of this one (#x); anything else stays text.
function linkFor(href) {
  const m = /^([\w-]+\.md)?(?:#([\w-]+))?$/.exec(href);
  if (!m || (!m[1] && !m[2])) return null;
  return { href: '#', data: `${m[1] || ''}#${m[2] || ''}` };
}

function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function build() {
  panel = el('aside', { id: 'rules-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'rules-title', hidden: '' });
  const head = el('div', { class: 'rules-head' });
  head.append(el('h2', { id: 'rules-title' }, 'How to play'));
  const close = el('button', { id: 'rules-close', type: 'button', 'aria-label': 'Close how to play', title: 'Close (Esc)' }, '×');
  close.addEventListener('click', closeRules);
  head.append(close);
  panel.append(head, el('p', { id: 'rules-for' }), el('nav', { id: 'rules-toc', 'aria-label': 'Sections of the rules' }),
    el('div', { id: 'rules-body', tabindex: '-1', role: 'document', 'aria-label': 'The rules' }));
  // Keys typed here are the panel's: Esc closes it, and the board's
  // shortcuts (n, u, f) do not act on a game the reader cannot see.
  panel.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Escape') { e.preventDefault(); closeRules(); }
  });
  panel.addEventListener('click', (e) => {
    const a = e.target.closest('a[data-target]');
    if (!a) return;
    e.preventDefault();
    const [page, anchor] = a.dataset.target.split('#');
    if (page && page !== panel.dataset.page) show(page, anchor ? `rules-${anchor}` : null);
    else if (anchor) jump(`rules-${anchor}`);
  });
  document.body.append(panel);
}

function jump(id) {
  const target = id && document.getElementById(id);
  const body = document.getElementById('rules-body');
  if (target && body.contains(target)) body.scrollTop += target.getBoundingClientRect().top - body.getBoundingClientRect().top - 8;
  else body.scrollTop = 0;
}

// Shows a page, at the heading with id `at` (or its top).
async function show(page, at) {
  const text = await fetchPage(page);
  const body = document.getElementById('rules-body');
  body.replaceChildren(renderMarkdown(text, { linkFor, headingShift: 1, idPrefix: 'rules-' }));
  panel.dataset.page = page;
  const toc = document.getElementById('rules-toc');
  toc.replaceChildren();
  for (const h of body.querySelectorAll('h3')) {
    toc.append(el('a', { href: '#', 'data-target': `#${h.id.slice('rules-'.length)}` }, h.textContent));
  }
  jump(at);
}

// The heading of a page that names the variant in code (`brax-hunt`), the
// deepest such; null when none does (the whole page is about it).
function sectionOf(variant) {
  let found = null;
  for (const h of document.querySelectorAll('#rules-body h2, #rules-body h3, #rules-body h4')) {
    if ([...h.querySelectorAll('code')].some((c) => c.textContent.toLowerCase() === variant)) found = h;
  }
  return found;
}

export async function openRules() {
  if (!panel) build();
  opener = document.activeElement;
  const layout = window.denham && window.denham.layout;
  const variant = layout ? layout.variant.toLowerCase() : '';
  const index = await loadIndex();
  const entry = index.get(variant);
  const forText = document.getElementById('rules-for');
  panel.hidden = false;
  document.body.classList.add('rules-open');
  if (entry) {
    forText.replaceChildren('You are playing ', el('code', {}, variant), entry.what ? `: ${entry.what.replace(/\.$/, '')}.` : '.');
    await show(entry.page, null);
    const h = sectionOf(variant);
    if (h) {
      jump(h.id);
      const item = document.querySelector(`#rules-toc a[data-target="#${h.id.slice('rules-'.length)}"]`);
      if (item) item.setAttribute('aria-current', 'location');
    }
  } else {
    forText.textContent = variant ? `No page names ${variant}: every game's page is listed here.` : '';
    await show('README.md', null);
  }
  panel.dataset.variant = variant;
  document.getElementById('rules-body').focus({ preventScroll: true });
}

export function closeRules() {
  if (!panel || panel.hidden) return;
  panel.hidden = true;
  document.body.classList.remove('rules-open');
  const back = opener && document.contains(opener) ? opener : document.getElementById('how-to-play');
  if (back) back.focus();
}

function setup() {
  const button = document.getElementById('how-to-play');
  if (!button) return;
  button.addEventListener('click', () => {
    if (panel && !panel.hidden) closeRules();
    else openRules().catch((err) => {
      const body = document.getElementById('rules-body');
      if (body) body.textContent = `The rules could not be shown: ${err.message}`;
    });
  });
  // Esc closes the panel wherever the focus is.
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && panel && !panel.hidden) closeRules();
  });
}

setup();
