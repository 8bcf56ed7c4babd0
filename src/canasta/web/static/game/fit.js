// Everything on one screen, as large as it goes: every card size of table.css is a multiple of --s (and the
// melds' of --ms), which fit() sets to the largest scale at which the page needs no scrolling, the board
// shows every meld and the hand has room, up to what the screen's size calls for.  Each try is a layout,
// so a table drawn again after a move starts from the last answer.
import { placeChooser } from "/static/game/render.js";
import { $ } from "/static/game/state.js";

const SMALLEST = 0.5; // the smallest scale of the cards
const PHONE = 700; // the widest screen laid out as a phone (table.css)

/** The largest scale the screen's size calls for: a little over 1 at 1366x768 (390x844 on a phone), more on a
 * larger screen. */
function largest() {
  const phone = window.innerWidth <= PHONE;
  const [w, h, most] = phone ? [390, 844, 1.3] : [1366, 768, 1.12];
  return Math.max(SMALLEST, Math.min(1.6, most * Math.min(window.innerWidth / w, window.innerHeight / h)));
}

const STEP = 0.03; // the scales tried differ by this much at least

/** How much larger than the other cards the melds may grow: about the size of the cards in the hand. */
const meldsMost = () => (window.innerWidth <= PHONE ? 1.25 : 1.6);

function setScale(scale) {
  const body = document.body;
  body.style.setProperty("--s", scale.toFixed(3));
  body.style.removeProperty("--ms");
  body.dataset.scale = scale.toFixed(2);
  body.classList.toggle("tight", scale < 0.8);
  body.classList.toggle("tighter", scale < 0.7);
}

function setMeldScale(scale) {
  document.body.style.setProperty("--ms", scale.toFixed(3));
  document.body.dataset.meldScale = scale.toFixed(2);
}

function fits() {
  const board = $("sides");
  const hand = $("hand");
  const root = document.scrollingElement || document.documentElement;
  return root.scrollHeight <= window.innerHeight + 1 && root.scrollWidth <= window.innerWidth + 1
    && board.scrollHeight <= board.clientHeight + 1 && hand.scrollHeight <= hand.clientHeight + 2;
}

/**
 * The largest value in [low, high] at which `test` holds (to STEP), `test(low)` holding or `low` being the
 * least there is.  `guess`, the last answer, is tried first with the step above it: a table drawn again
 * after one move mostly keeps its scale, in two layouts instead of seven.
 */
function search(low, high, test, guess = null) {
  if (guess !== null) {
    const start = Math.min(high, Math.max(low, guess));
    if (start <= low || test(start)) {
      const up = Math.min(high, start + STEP);
      if (up <= start || !test(up)) return start;
      low = up;
    } else high = start;
  } else if (test(high)) return high;
  while (high - low > STEP) {
    const mid = (low + high) / 2;
    if (test(mid)) low = mid;
    else high = mid;
  }
  return low;
}

const last = { size: "", shape: null, scale: null, melds: null }; // the last fit, for a guess at the next one

/**
 * What the cards' room depends on, besides the screen: how many cards and melds there are on the table and in
 * the hand, and the boxes that come and go.
 */
function shape() {
  const count = (sel) => document.querySelectorAll(sel).length;
  return {
    counts: [count("#sides .card"), count("#sides .meld"), count("#sides .side"), count("#hand .card"),
      count("#players li")],
    boxes: `${$("pile-choices").hidden}|${$("seat-left").hidden}|${document.body.className}`,
  };
}

/** Whether the table now holds no fewer cards than at the last fit, in the same boxes: it cannot have grown room. */
function noRoomGained(now) {
  return last.shape !== null && now.boxes === last.shape.boxes
    && now.counts.every((n, i) => n >= last.shape.counts[i]);
}

/** The share of the board's height that nothing uses (the melds, the stock and the pile take the rest). */
function boardSlack() {
  const board = $("sides");
  const gap = parseFloat(getComputedStyle(board).rowGap) || 0;
  const used = ["others", "center", "mine-row"].reduce((sum, id) => sum + $(id).getBoundingClientRect().height, 0);
  return board.clientHeight ? (board.clientHeight - used - 2 * gap) / board.clientHeight : 0;
}

/**
 * Everything on one screen, as large as it goes: the largest scale of the cards (melds, pile, hand)
 * at which the page needs no scrolling and the board shows every meld, up to what the screen's size
 * calls for; then the melds grow into the room left on the board.
 */
export function fit() {
  const size = `${window.innerWidth}x${window.innerHeight}`;
  const same = last.size === size;
  const now = shape();
  const high = largest();
  if (same && last.scale !== null) {
    // Most moves leave the room as it was: the last scale stands while it still fits, which one layout tells,
    // unless the table holds fewer cards and the board has room to spare (larger cards may fit).
    setScale(last.scale);
    setMeldScale(last.melds);
    const atMost = last.scale >= high - 0.001 && last.melds >= last.scale * meldsMost() - 0.001;
    if (fits() && (atMost || noRoomGained(now) || boardSlack() < 0.05)) {
      last.shape = now;
      fitLog();
      titleCutNames();
      placeChooser();
      return;
    }
  }
  const scale = search(SMALLEST, high, (s) => {
    setScale(s);
    return fits();
  }, same ? last.scale : null);
  setScale(scale);
  let melds = scale;
  // The melds grow to about the size of the cards in the hand.
  if (scale > SMALLEST || fits()) {
    const most = scale * meldsMost();
    melds = search(scale, most, (s) => {
      setMeldScale(s);
      return fits();
    }, same && last.melds !== null ? last.melds : null);
  }
  setMeldScale(melds);
  Object.assign(last, { size, shape: now, scale, melds });
  fitLog();
  titleCutNames();
  placeChooser();
}

/**
 * A name cut short to fit (an ellipsis in the top bar, at a seat or over a side's melds: table.css) shows whole
 * in its tooltip; a name shown whole has none.
 */
export function titleCutNames() {
  for (const name of document.querySelectorAll("#scores .score-names, #players .player-name, #sides .side-names")) {
    const cut = name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5;
    if (cut) name.title = name.textContent.trim();
    else name.removeAttribute("title");
  }
}

const logFit = { key: "" }; // the screen and the lines the log was last fitted to

/**
 * The log shows whole lines: scrolled to its newest line, its height is cut to the lines that fit,
 * so the first line in view is never cut in half.
 */
export function fitLog() {
  const list = $("log");
  const key = `${window.innerWidth}x${window.innerHeight}|${list.children.length}|${list.dataset.rendered}`;
  if (key === logFit.key && list.scrollHeight - list.scrollTop - list.clientHeight < 2) return; // as it was
  logFit.key = key;
  list.classList.remove("fitted");
  list.style.height = "";
  const room = list.clientHeight;
  const items = [...list.children];
  if (!room || !items.length) return;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  let used = 0;
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const h = items[i].offsetHeight;
    if (used + h > room) break;
    used += h;
  }
  if (used > 0 && used < list.scrollHeight) {
    list.style.height = `${used}px`;
    list.classList.add("fitted");
  }
  if (atBottom) list.scrollTop = list.scrollHeight;
}
