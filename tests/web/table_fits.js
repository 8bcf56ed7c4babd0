// What tests/web/test_table.py measures on the game page: everything a player needs is on the screen.
// A function of nothing, returning the problems found (sentences).
() => {
  const w = innerWidth, h = innerHeight, out = [];
  const root = document.scrollingElement;
  if (root.scrollHeight > h + 1) out.push(`the page scrolls: ${root.scrollHeight} px tall`);
  if (root.scrollWidth > w + 1) out.push(`the page scrolls sideways: ${root.scrollWidth} px wide`);
  const dialog = document.querySelector('dialog[open]');
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const inside = (e, what) => {
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1)
      out.push(`${what} is off screen: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
    return r;
  };
  const board = document.getElementById('sides').getBoundingClientRect();
  const wanted = [
    ['#hand .card', 'a card of the hand'], ['#sides .meld', 'a meld'], ['#sides .red-threes', 'red threes'],
    ['#pile-top', 'the pile'], ['#stock-card', 'the stock'], ['#turn', 'whose turn'], ['#scores .score-value', 'a score'],
    ['#sides .side-min', 'a first-meld minimum'], ['#players li.player', 'a seat'],
    ['#action-bar button', 'an action button'],
  ];
  for (const [sel, what] of wanted) {
    for (const e of document.querySelectorAll(sel)) {
      if (!shown(e)) continue;
      const r = inside(e, `${what} (${e.dataset.card || e.dataset.rank || e.id || e.dataset.seat || ''})`);
      if (sel.startsWith('#sides') && (r.top < board.top - 1 || r.bottom > board.bottom + 1))
        out.push(`${what} ${e.dataset.rank || ''} is cut off by the board`);
    }
  }
  if (!dialog) {
    // No card of the hand is hidden under something else: its left strip answers a click.
    for (const e of document.querySelectorAll('#hand .card')) {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
      if (!hit || !e.contains(hit)) out.push(`the card ${e.dataset.key} is covered by ${hit && (hit.id || hit.className)}`);
    }
    const melds = [...document.querySelectorAll('#sides .meld')];
    for (const e of melds) {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !e.contains(hit)) out.push(`the meld ${e.dataset.side}:${e.dataset.rank} is covered`);
    }
  } else {
    inside(dialog, 'the result dialog');
    for (const e of dialog.querySelectorAll('button, a.button')) if (shown(e)) inside(e, `the dialog's ${e.textContent.trim()}`);
    if (!dialog.contains(document.activeElement)) out.push('the focus is not in the result dialog');
  }
  if (w < 700) {
    const targets = [...document.querySelectorAll('#action-bar .actions button, button.meld, #btn-panel, dialog[open] button, dialog[open] a.button')];
    for (const e of targets) {
      if (!shown(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push(`a touch target under 44 px: ${e.id || e.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}
