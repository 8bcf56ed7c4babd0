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
  // Names are never cut: each shows its whole text (it may wrap).
  for (const e of document.querySelectorAll('#scores .score-names, #players .player-name')) {
    if (shown(e) && (e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5))
      out.push(`the name "${e.textContent}" is cut: ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`);
  }
  if (w < 700) {
    const targets = [...document.querySelectorAll('#action-bar .actions button, #sides .meld-hit, #btn-panel, #pile-choices button, dialog[open] button, dialog[open] a.button')];
    for (const e of targets) {
      if (!shown(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push(`a touch target under 44 px: ${e.id || e.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    // What a finger can hit: some 44x44 px square of each card of the hand (and each target) answers a
    // tap at every one of 5x5 points across it, 2 px in from its edges (elementFromPoint: the visible
    // part, not the element's box).
    const square = (e, x, y) => {
      for (let i = 0; i < 5; i += 1) for (let j = 0; j < 5; j += 1) {
        const hit = document.elementFromPoint(x + 2 + i * 10, y + 2 + j * 10);
        if (!hit || !e.contains(hit)) return false;
      }
      return true;
    };
    const tappable = (e) => {
      const r = e.getBoundingClientRect();
      for (let y = r.top; y <= r.bottom - 44 + 0.01; y += 2)
        for (let x = r.left; x <= r.right - 44 + 0.01; x += 2) if (square(e, x, y)) return true;
      return false;
    };
    const taps = dialog ? [] : [...document.querySelectorAll('#hand .card, #sides .meld-hit')];
    for (const e of taps) {
      if (shown(e) && !tappable(e))
        out.push(`no 44x44 px of ${e.dataset.key || e.dataset.rank || e.id || e.textContent.trim()} answers a tap`);
    }
    // Buttons (rounded, side by side, never overlapping): their box is 44 px (above) and nothing covers them.
    for (const e of dialog ? [] : document.querySelectorAll('#action-bar .actions button, #pile-choices button')) {
      const r = e.getBoundingClientRect();
      const hit = shown(e) && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (shown(e) && (!hit || !e.contains(hit))) out.push(`the button ${e.id || e.textContent.trim()} is covered`);
    }
  }
  return out;
}
