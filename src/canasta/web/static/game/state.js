// The page's own state (selection, pending requests, display queue) and facts derived from a
// `state` message.  Nothing here talks to the server or the DOM.
import { actionOf, sortCards } from "/static/cards.js";

export const $ = (id) => document.getElementById(id);

export const ui = {
  ws: null,
  attempts: 0, // reconnect attempts since the last welcome
  fatal: false, // a hello that can never work (bad token, no table): stop reconnecting
  role: null, // "player" | "spectator"
  seat: null,
  last: null, // the state message on display
  counter: 0, // move ids
  pending: new Map(), // id -> what was sent (move text, "next", "hint")
  selected: new Set(), // "KD#1": the second KD of the sorted hand
  highlight: new Set(), // cards a hint or a pile choice points at ("KD#0")
  hintFor: null, // state id the highlight belongs to
  choosing: false, // the pile chooser is open
  choiceMoves: null, // moves offered in the chooser instead of the pile moves (where wild cards go)
  choiceFor: null, // the state id the engine offered choiceMoves in
  fresh: [], // codes drawn or taken with the pile, marked in the hand until this seat's next move
  freshHand: null, // the hand those marks belong to
  dialogShown: null, // "hand:status" of the result dialog last opened
  presets: null, // /api/setup's presets (decks, bonuses) once fetched
  wasMyTurn: false,
};

export const isPlayer = () => ui.role === "player" && ui.seat !== null && ui.seat !== undefined;

export function sideOfSeat(table, seat) {
  if (seat === null || seat === undefined) return null;
  const index = (table.sides || []).findIndex((seats) => seats.includes(seat));
  return index >= 0 ? index : null;
}

export function playerName(table, seat) {
  const p = (table.players || []).find((x) => x.seat === seat);
  return p ? p.name : seat === null || seat === undefined ? "table" : `Seat ${seat + 1}`;
}

/** A seat as the log and the turn line name it: "You" for this page's own seat. */
export function who(table, seat) {
  return isPlayer() && seat === ui.seat ? "You" : playerName(table, seat);
}

/** "Ann & North": the names of a side's players. */
export function sideNames(table, side) {
  return (table.sides[side] || []).map((s) => playerName(table, s)).join(" & ");
}

export function sideTitle(table, side) {
  const mine = isPlayer() && sideOfSeat(table, ui.seat) === side;
  const names = sideNames(table, side);
  return mine ? `${names} (your side)` : names;
}

export function myTurn(msg) {
  return isPlayer() && msg.view.phase !== "over" && msg.table.status === "playing" && msg.view.to_act === ui.seat;
}

/** The seat shown at the bottom of the table: this page's seat, or seat 0 for a spectator. */
export const bottomSeat = () => (isPlayer() ? ui.seat : 0);

/**
 * Where each seat sits around the table, seen from the bottom seat: play goes clockwise, so
 * the next seat is on the left, then across, then on the right.
 */
export function seatPositions(count) {
  return {
    1: ["bottom"],
    2: ["bottom", "top"],
    3: ["bottom", "left", "right"],
    4: ["bottom", "left", "top", "right"],
    5: ["bottom", "left", "top-left", "top-right", "right"],
    6: ["bottom", "left", "top-left", "top", "top-right", "right"],
  }[count] || ["bottom"];
}

export function positionOf(table, seat) {
  const n = (table.players || []).length;
  return seatPositions(n)[(seat - bottomSeat() + n) % n];
}

/** The action words of the legal moves: the server lists every one, even when `legal` is cut short. */
export function legalActions(msg) {
  return new Set(msg.actions || (msg.legal || []).map(actionOf));
}

/** The hand, sorted, each card with its key ("KD#1": the second KD). */
export function handCards(view) {
  const seen = new Map();
  return sortCards(view.hand || []).map((code) => {
    const n = seen.get(code) || 0;
    seen.set(code, n + 1);
    return { code, key: `${code}#${n}` };
  });
}

export function selectedCodes() {
  if (!ui.last) return [];
  return handCards(ui.last.view).filter((c) => ui.selected.has(c.key)).map((c) => c.code);
}

/** Keys of the hand cards named in `codes` (each code used once per copy). */
export function keysFor(view, codes) {
  const wanted = new Map();
  for (const code of codes) wanted.set(code, (wanted.get(code) || 0) + 1);
  const keys = new Set();
  for (const card of handCards(view)) {
    const n = wanted.get(card.code) || 0;
    if (n > 0) {
      keys.add(card.key);
      wanted.set(card.code, n - 1);
    }
  }
  return keys;
}

/** The table's rules as fields: the preset's (from /api/setup, when fetched) with the table's changes. */
export function rulesOf(msg) {
  const rules = msg.table.rules;
  const preset = typeof rules === "string" ? rules : rules && rules.preset;
  const base = (ui.presets && ui.presets[preset]) || {};
  return { preset: preset || "classic", ...base, ...(typeof rules === "object" && rules ? rules : {}) };
}

/** The rules page of this table's exact rules (GET /rules/{preset}?set=OPTION=VALUE...). */
export function rulesLink(msg) {
  const rules = msg.table.rules;
  if (typeof rules === "string") return `/rules/${encodeURIComponent(rules)}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(rules || {})) {
    if (name !== "preset" && (typeof value !== "object" || value === null)) params.append("set", `${name}=${value}`);
  }
  const query = params.toString();
  return `/rules/${encodeURIComponent((rules && rules.preset) || "classic")}${query ? "?" + query : ""}`;
}
