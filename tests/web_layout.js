// web_layout.js: the board page's layout, checked from inside the page by
// the browser suites (tests/web_layout.c reads this file and evaluates
// it). One line per problem; "" when there is none:
// - a message, chooser or status box covering a board cell, a control or
//   another box;
// - text clipped by its box (a scroll size larger than the client size);
// - on a desktop (the page does not scroll there), a box below the window;
// - the plot's words printed over one another.
(() => {
  const shown = (e) => !!e && e.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    && e.getBoundingClientRect().width > 0.5 && e.getBoundingClientRect().height > 0.5;
  const name = (e) => {
    if (e.id) return `#${e.id}`;
    if (e.dataset && e.dataset.cell) return `cell ${e.dataset.cell}`;
    const cls = typeof e.className === 'string' && e.className ? `.${e.className.split(' ')[0]}` : '';
    return `${e.tagName.toLowerCase()}${cls} "${e.textContent.trim().slice(0, 30)}"`;
  };
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const apart = (a, b) => a !== b && !a.contains(b) && !b.contains(a);
  const out = [];
  const boxes = ['#banner', '#status-line', '#error', '#chooser', '#replay-bar', '#no-engine', '#learn-bar',
    '#clocks', '#specials', '#move-form'].map((s) => document.querySelector(s)).filter(shown);
  const controls = [...document.querySelectorAll(
    'button, input, select, textarea, summary, a[href], [role=button], [data-cell]')]
    .filter((e) => !e.closest('#rules-panel') && shown(e));
  boxes.forEach((b, i) => {
    const r = b.getBoundingClientRect();
    for (const c of controls) if (apart(b, c) && meet(r, c.getBoundingClientRect())) out.push(`${name(b)} covers ${name(c)}`);
    for (const o of boxes.slice(i + 1)) if (apart(b, o) && meet(r, o.getBoundingClientRect())) out.push(`${name(b)} overlaps ${name(o)}`);
    for (const e of [b, ...b.querySelectorAll('*')]) {
      if (e instanceof SVGElement || !shown(e) || !e.textContent.trim() || /^(INPUT|SELECT|TEXTAREA)$/.test(e.tagName)) continue;
      if (['inline', 'contents'].includes(getComputedStyle(e).display)) continue;
      if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) {
        out.push(`${name(e)} clips its text (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight})`);
      }
    }
    if (innerWidth > 900 && r.bottom > innerHeight + 0.5) out.push(`${name(b)} runs below the window (${Math.round(r.bottom)})`);
  });
  const plot = document.getElementById('plot');
  if (shown(plot)) {
    const words = [...plot.querySelectorAll('text')].filter((t) => t.textContent).map((t) => [t.textContent, t.getBoundingClientRect()]);
    words.forEach(([a, ra], i) => {
      for (const [b, rb] of words.slice(i + 1)) if (meet(ra, rb)) out.push(`the plot's "${a}" prints over "${b}"`);
    });
  }
  return out.join('\n');
})()
