// markdown.js: a small, safe Markdown renderer for the rules pages of
// docs/rules/ ("How to play", rules.js). It builds DOM nodes and sets only
// text (never innerHTML), so any HTML in a page shows as text. It knows
// headings, paragraphs, lists (nested by indentation), tables, fenced code,
// inline code, **strong**, *emphasis* and [links](...); a link becomes a link
// only when the caller's linkFor(href) accepts it (links within the rules),
// otherwise its text stays plain. It reaches into nothing of the page: it
// returns a fragment for the caller to place.

// An id for a heading's text, unique within `used` (a Set).
function slug(text, used, prefix) {
  const base = prefix + (text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'section');
  let id = base;
  for (let k = 2; used.has(id); k++) id = `${base}-${k}`;
  used.add(id);
  return id;
}

// Inline text: code spans, strong, emphasis, links; everything else text.
function inline(parent, text, opts) {
  let plain = '';
  const flush = () => { if (plain) { parent.append(document.createTextNode(plain)); plain = ''; } };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    let m;
    if (rest[0] === '\\' && rest.length > 1 && /[\\`*_[\]()#|!-]/.test(rest[1])) {
      plain += rest[1];
      i += 2;
    } else if (rest[0] === '`' && (m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
      flush();
      const code = document.createElement('code');
      code.textContent = m[2].trim() || m[2];
      parent.append(code);
      i += m[0].length;
    } else if ((m = /^\*\*(?=\S)([\s\S]*?\S)\*\*/.exec(rest))) {
      flush();
      const b = document.createElement('strong');
      inline(b, m[1], opts);
      parent.append(b);
      i += m[0].length;
    } else if ((m = /^\*(?=[^\s*])([\s\S]*?[^\s*])\*/.exec(rest)) || (/\W|^$/.test(text[i - 1] || '') && (m = /^_(?=\S)([^_]*?\S)_(?!\w)/.exec(rest)))) {
      flush();
      const em = document.createElement('em');
      inline(em, m[1], opts);
      parent.append(em);
      i += m[0].length;
    } else if (rest[0] === '[' && (m = /^\[([^\]]+)\]\(([^()\s]*)\)/.exec(rest))) {
      flush();
      const target = opts.linkFor ? opts.linkFor(m[2]) : null;
      if (target) {
        const a = document.createElement('a');
        a.href = target.href;
        a.dataset.target = target.data;
        inline(a, m[1], opts);
        parent.append(a);
      } else {
        inline(parent, m[1], opts);
      }
      i += m[0].length;
    } else {
      plain += rest[0];
      i += 1;
    }
  }
  flush();
}

// The cells of a table row, split on | outside code spans.
function cells(line) {
  const out = [];
  let cur = '', code = false;
  const s = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && s[i + 1] === '|') { cur += '|'; i++; continue; }
    if (c === '`') code = !code;
    if (c === '|' && !code) { out.push(cur.trim()); cur = ''; } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

// Renders Markdown text; returns a DocumentFragment. opts: linkFor(href)
// -> {href, data} or null; headingShift (added to each heading's level);
// idPrefix for the headings' ids.
export function renderMarkdown(text, opts = {}) {
  const frag = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const used = new Set();
  const shift = opts.headingShift || 0;
  const prefix = opts.idPrefix || 'md-';
  let i = 0;
  const startsBlock = (l) => FENCE.test(l) || HEADING.test(l) || LIST_ITEM.test(l) || /^\s*\|/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    let m;
    if ((m = FENCE.exec(line))) {
      const fence = m[1];
      const body = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence); i++) body.push(lines[i]);
      i++;
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = body.join('\n');
      pre.append(code);
      frag.append(pre);
    } else if ((m = HEADING.exec(line))) {
      const h = document.createElement(`h${Math.min(6, m[1].length + shift)}`);
      inline(h, m[2], opts);
      h.id = slug(h.textContent, used, prefix);
      frag.append(h);
      i++;
    } else if (/^\s*\|/.test(line) && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      const table = document.createElement('table');
      const head = document.createElement('thead');
      const tr = document.createElement('tr');
      for (const c of cells(line)) {
        const th = document.createElement('th');
        th.scope = 'col';
        inline(th, c, opts);
        tr.append(th);
      }
      head.append(tr);
      table.append(head);
      const body = document.createElement('tbody');
      for (i += 2; i < lines.length && /^\s*\|/.test(lines[i]); i++) {
        const row = document.createElement('tr');
        for (const c of cells(lines[i])) {
          const td = document.createElement('td');
          inline(td, c, opts);
          row.append(td);
        }
        body.append(row);
      }
      table.append(body);
      const wrap = document.createElement('div');
      wrap.className = 'md-table';
      wrap.append(table);
      frag.append(wrap);
    } else if (LIST_ITEM.test(line)) {
      // Items with their indentation; continuation lines join their item.
      const items = [];
      for (; i < lines.length; i++) {
        const l = lines[i];
        const im = LIST_ITEM.exec(l);
        const ordered = im && /\d/.test(im[2]);
        // A list of the other kind at the first item's level is another list.
        if (im && items.length && im[1].length <= items[0].indent && ordered !== items[0].ordered) break;
        if (im) items.push({ indent: im[1].length, ordered, start: parseInt(im[2], 10), text: im[3] });
        else if (l.trim() && /^\s+/.test(l) && !startsBlock(l)) items[items.length - 1].text += ' ' + l.trim();
        else break;
      }
      frag.append(buildList(items, opts));
    } else {
      const para = [];
      for (; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++) para.push(lines[i].trim());
      const p = document.createElement('p');
      inline(p, para.join(' '), opts);
      frag.append(p);
    }
  }
  return frag;
}

// Nested lists from items with indentation.
function buildList(items, opts) {
  const root = { indent: -1, list: null, last: null };
  const stack = [root];
  let top = null;
  for (const it of items) {
    while (stack.length > 1 && it.indent < stack[stack.length - 1].indent) stack.pop();
    let level = stack[stack.length - 1];
    if (level === root || it.indent > level.indent) {
      const list = document.createElement(it.ordered ? 'ol' : 'ul');
      if (it.ordered && it.start > 1) list.start = it.start;
      if (level === root) top = list;
      else if (level.last) level.last.append(list);
      level = { indent: it.indent, list, last: null };
      stack.push(level);
    }
    const li = document.createElement('li');
    inline(li, it.text, opts);
    level.list.append(li);
    level.last = li;
  }
  return top;
}
