// Points on the table during a hand: the one place the page does arithmetic on card values
// (docs/rules.md 13.1, 13.2, 4.2).  A value the server sends wins over this sum.
import { isWild, rankOf } from "/static/cards.js";

/** A card's value: joker 50, 2 and A 20, K to 8 10, 7 to 4 and black threes 5. */
export function cardPoints(code) {
  if (code === "JK") return 50;
  const rank = rankOf(code);
  if (rank === "2" || rank === "A") return 20;
  return "KQJT98".includes(rank) ? 10 : 5;
}

/** "natural" | "mixed" | "wild" for a meld of 7 or more cards, else null (the server's word when sent). */
export function canastaKind(view, side, rank, cards) {
  const sent = view.canastas && view.canastas[side] && view.canastas[side][rank];
  if (sent !== undefined) return sent || null;
  if (cards.length < 7) return null;
  if (rank === "W") return "wild";
  return cards.some(isWild) ? "mixed" : "natural";
}

/**
 * A side's points on the table now: its melded cards, its canastas and its red threes (against
 * it while it has no meld).  Cards in hand are not counted: nobody sees them.
 */
export function pointsOnTable(view, side, rules) {
  const sent = view.table_points && view.table_points[side];
  if (typeof sent === "number") return sent;
  const melds = (view.melds || [])[side] || {};
  let total = 0;
  let any = false;
  for (const [rank, cards] of Object.entries(melds)) {
    any = true;
    for (const code of cards) total += cardPoints(code);
    const kind = canastaKind(view, side, rank, cards);
    if (kind === "natural") total += 500;
    else if (kind === "mixed") total += 300;
    else if (kind === "wild") total += rules.wild_canasta_bonus ?? 2000;
  }
  const reds = ((view.red_threes || [])[side] || []).length;
  const all = 2 * (rules.decks || 2);
  const redPoints = reds >= 5 || (reds === all && reds > 0) ? 200 * reds : 100 * reds;
  return total + (any ? redPoints : -redPoints);
}
