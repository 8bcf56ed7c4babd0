// Motion that tells what happened: cards move from the stock, the pile or a hand to where they
// land, as the engine's record of each move says (log.js `changeOf`; FLIP on the new elements,
// and card backs for the hands nobody sees).  The other players' moves are paced one by one at the
// chosen speed; prefers-reduced-motion turns motion and pacing off.
import { actionOf } from "/static/cards.js";
import { meldsOf } from "/static/game/log.js";
import { $, isPlayer, sideOfSeat, ui } from "/static/game/state.js";

const SPEEDS = { slow: 1600, normal: 900, fast: 350 };
const KEY = "canasta:speed";
const reducedQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export const reduced = () => Boolean(reducedQuery && reducedQuery.matches);

export function speed() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved in SPEEDS) return saved;
  } catch {
    /* storage unavailable */
  }
  return "normal";
}

export function setSpeed(value) {
  if (!(value in SPEEDS)) return;
  try {
    localStorage.setItem(KEY, value);
  } catch {
    /* storage unavailable */
  }
  document.body.dataset.speed = value;
}

/** How long the page shows another player's move before the next one, in ms (0: no pacing). */
export const pace = () => (reduced() ? 0 : SPEEDS[speed()]);
const duration = () => Math.round(pace() * 0.55);

/** Where things are before a render: the stock, the pile, each seat, each card of the hand. */
export function capture() {
  const rect = (node) => (node ? node.getBoundingClientRect() : null);
  const seats = new Map();
  for (const li of document.querySelectorAll("#players li.player")) seats.set(Number(li.dataset.seat), rect(li));
  const hand = [];
  for (const card of document.querySelectorAll("#hand .card[data-card]")) hand.push({ code: card.dataset.card, rect: rect(card) });
  return { stock: rect($("stock-card")), pile: rect($("pile-top")), seats, hand };
}

function takeHandRect(rects, code) {
  const i = rects.hand.findIndex((c) => c.code === code);
  if (i < 0) return null;
  return rects.hand.splice(i, 1)[0].rect;
}

function count() {
  document.body.dataset.animations = String(Number(document.body.dataset.animations || 0) + 1);
}

const ghosts = new Set(); // the images of cards in flight, removed when they land or the table is drawn again

/** Land every card in flight at once (the table is about to be drawn again). */
export function settle() {
  for (const animation of [...ghosts]) animation.finish();
}

/**
 * Move `element` from `from` to where it is now.  The card itself is already in its place, where it takes
 * its clicks (the card you drew, in your hand) while an image of it flies there, taking none; the card shows
 * when its image lands.
 */
function flyFrom(element, from, delay = 0) {
  if (!element || !from || !element.animate) return;
  const to = element.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.4, Math.min(2.5, from.width / to.width));
  const ghost = element.cloneNode(true);
  // Only a picture: no id and no data of the card it shows (what the page and its tests look up is the card).
  for (const node of [ghost, ...ghost.querySelectorAll("*")]) {
    node.removeAttribute("id");
    for (const name of Object.keys(node.dataset)) delete node.dataset[name];
  }
  ghost.classList.add("ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true; // an image only: no focus, no click, nothing read out
  Object.assign(ghost.style, {
    position: "fixed", left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px`,
    margin: "0", zIndex: "60", pointerEvents: "none",
  });
  document.body.append(ghost);
  element.style.opacity = "0";
  const animation = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: duration(), delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "both" },
  );
  ghosts.add(animation);
  const landed = () => {
    ghosts.delete(animation);
    ghost.remove();
    element.style.opacity = "";
  };
  animation.onfinish = landed;
  animation.oncancel = landed;
  count();
}

/** A card back flying between two places (a hand nobody else sees). */
function flyBack(from, to, delay = 0) {
  if (!from || !to) return;
  const back = document.createElement("div");
  back.className = "card back flying";
  back.setAttribute("aria-hidden", "true");
  back.style.left = `${from.left + from.width / 2 - 20}px`;
  back.style.top = `${from.top + from.height / 2 - 28}px`;
  document.body.append(back);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const animation = back.animate(
    [{ transform: "translate(0, 0)", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.7)`, opacity: 0.2 }],
    { duration: duration(), delay, easing: "ease-in-out", fill: "both" },
  );
  animation.onfinish = () => back.remove();
  animation.oncancel = () => back.remove();
  count();
}

/** Light up an element for a while (a new meld, a seat that just moved). */
function glow(element, cls = "arrived") {
  if (!element) return;
  element.classList.add(cls);
  setTimeout(() => element.classList.remove(cls), Math.max(1200, pace() * 2));
}

/** Play the moves new in `msg` (log.js `changeOf`: the engine's records of them), after the new render. */
export function play(change, rects, msg) {
  if (!change || !change.last || reduced()) return;
  const { last } = change;
  const word = actionOf(last.move);
  const mine = isPlayer() && last.seat === ui.seat;
  const seatSelector = `#players li.player[data-seat="${last.seat}"]`;
  const seatNow = document.querySelector(seatSelector);
  const seatRect = rects.seats.get(last.seat) || (seatNow && seatNow.getBoundingClientRect());
  glow(seatNow, "just-moved");
  const handCard = (code) => {
    const keys = [...document.querySelectorAll(`#hand .card.fresh[data-card="${CSS.escape(code)}"]`)];
    return keys.find((k) => !k.dataset.flown) || null;
  };
  if (word === "draw") {
    if (mine) {
      change.drew.forEach((code, i) => {
        const node = handCard(code);
        if (node) {
          node.dataset.flown = "1";
          flyFrom(node, rects.stock, i * 90);
        }
      });
    } else flyBack(rects.stock, seatRect);
  }
  if (word === "discard") {
    const code = (last.move.split(/\s+/)[1] || "").toUpperCase();
    const from = mine ? takeHandRect(rects, code) : seatRect;
    flyFrom(document.querySelector("#pile-top .card"), from);
  }
  if (word === "pile") {
    if (mine) {
      change.drew.forEach((code, i) => {
        const node = handCard(code);
        if (node) {
          node.dataset.flown = "1";
          flyFrom(node, rects.pile, Math.min(i, 8) * 50);
        }
      });
    } else {
      const taken = Math.min(Math.max((last.took || 0) - 1, 0), 5);
      for (let i = 0; i < taken; i += 1) flyBack(rects.pile, seatRect, i * 70);
    }
  }
  // New cards in melds come from the hand that laid them (the pile's top card from the pile).
  let pileTop = word === "pile" ? last.top || null : null;
  for (const { side, rank, cards } of meldsOf(msg.table, last)) {
    const meld = document.querySelector(`#sides .meld[data-side="${side}"][data-rank="${CSS.escape(rank)}"]`);
    if (!meld) continue;
    glow(meld);
    const nodes = [...meld.querySelectorAll(".card")];
    if (meld.classList.contains("canasta")) {
      flyFrom(meld, mine ? takeHandRect(rects, cards[0]) || seatRect : seatRect);
      continue;
    }
    cards.forEach((code, i) => {
      const node = [...nodes].reverse().find((n) => n.dataset.card === code && !n.dataset.flown);
      if (!node) return;
      node.dataset.flown = "1";
      let from = seatRect;
      if (pileTop === code) {
        from = rects.pile;
        pileTop = null;
      } else if (mine) from = takeHandRect(rects, code) || seatRect;
      flyFrom(node, from, i * 60);
    });
  }
  const reds = new Set(change.entries.flatMap((e) => (e.reds || []).map((r) => sideOfSeat(msg.table, r.seat))));
  for (const side of reds) {
    const box = document.querySelector(`#sides .red-threes[data-side="${side}"]`);
    if (!box) continue;
    glow(box);
    const node = box.querySelector(".red-chip:last-child");
    flyFrom(node, word === "pile" ? rects.pile : rects.stock);
  }
}
