// Shared helpers for the Canasta pages: cards in the project's notation (NOTATION.md),
// rank order, suit symbols, card elements, and building move groups from chosen cards.
// No framework, no build step; every text goes into the DOM through textContent.

/** Ranks in the notation's order, high to low (aces first, twos last). */
export const RANKS = "AKQJT98765432";
/** Natural ranks: 4 up to A. */
export const NATURAL_RANKS = "AKQJT987654";
/** Suits in the notation's order. */
export const SUIT_ORDER = "SHDC";
/** Meld ranks in display order: naturals, black threes, wild-card melds. */
export const MELD_RANK_ORDER = "AKQJT9876543W";

export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two", W: "wild card",
};
const RANK_PLURAL = {
  A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens", 9: "nines", 8: "eights",
  7: "sevens", 6: "sixes", 5: "fives", 4: "fours", 3: "black threes", W: "wild cards",
};

/** Canonical code of a card text ("10h" -> "TH", "jk" -> "JK"), or null if it is not a card. */
export function normalizeCard(text) {
  let t = String(text).trim().toUpperCase();
  if (t.startsWith("10")) t = "T" + t.slice(2);
  if (t === "JK") return t;
  if (t.length === 2 && RANKS.includes(t[0]) && SUIT_ORDER.includes(t[1])) return t;
  return null;
}

export const isJoker = (code) => code === "JK";
export const rankOf = (code) => (code === "JK" ? "JK" : code[0]);
export const suitOf = (code) => (code === "JK" ? null : code[1]);
export const isWild = (code) => code === "JK" || code[0] === "2";
export const isNatural = (code) => code !== "JK" && NATURAL_RANKS.includes(code[0]);
export const isRedThree = (code) => code === "3H" || code === "3D";
export const isBlackThree = (code) => code === "3S" || code === "3C";
export const isRedSuit = (code) => code === "3H" || (!isJoker(code) && "HD".includes(code[1]));

/** Rank as people read it: T is shown as 10. */
export const rankLabel = (rank) => (rank === "T" ? "10" : rank);

/** Short label: "K♠", "10♥", "Joker". */
export function cardLabel(code) {
  if (isJoker(code)) return "Joker";
  return rankLabel(code[0]) + SUIT_SYMBOL[code[1]];
}

/** Spoken name: "king of spades", "joker". */
export function cardName(code) {
  if (isJoker(code)) return "joker";
  return `${RANK_NAME[code[0]]} of ${SUIT_NAME[code[1]]}`;
}

/** Name of a meld rank: "kings", "black threes". */
export const rankPlural = (rank) => RANK_PLURAL[rank] || rank;

/** Sort key: A K Q J T 9 8 7 6 5 4 3, then 2s, then jokers; suits S H D C within a rank. */
export function cardSortKey(code) {
  if (isJoker(code)) return 13 * 4 + 1;
  return RANKS.indexOf(code[0]) * 4 + SUIT_ORDER.indexOf(code[1]);
}

export function sortCards(codes) {
  return [...codes].sort((a, b) => cardSortKey(a) - cardSortKey(b));
}

/** The group a card belongs to in the hand display: its rank, "2" or "JK". */
export const handGroupOf = (code) => rankOf(code);

/**
 * A card element.  `tag` is "button" for a clickable card, anything else for a plain one.
 * Options: small (a compact card), tag.
 */
export function makeCard(code, { tag = "div", small = false } = {}) {
  const el = document.createElement(tag);
  el.className = "card";
  if (small) el.classList.add("small");
  if (tag === "button") el.type = "button";
  el.dataset.card = code;
  if (isJoker(code)) {
    el.classList.add("joker", "wild");
  } else {
    el.classList.add("suit-" + code[1]);
    if (isRedSuit(code)) el.classList.add("red");
    if (isWild(code)) el.classList.add("wild");
  }
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = isJoker(code) ? "JK" : rankLabel(code[0]);
  if (code[0] === "T") rank.classList.add("ten");
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = isJoker(code) ? "Joker" : SUIT_SYMBOL[code[1]];
  el.append(rank, suit);
  const name = cardName(code) + (isWild(code) ? " (wild)" : "");
  if (tag === "button") {
    // Its name is said in words ("king of spades"); the corner's symbols are for the eye.
    rank.setAttribute("aria-hidden", "true");
    suit.setAttribute("aria-hidden", "true");
    const said = document.createElement("span");
    said.className = "visually-hidden card-name";
    said.textContent = name;
    el.append(said);
  } else el.title = name;
  return el;
}

/** Every card code written in a move's text ("meld K: JK 2C" -> ["JK", "2C"]). */
export function cardsInText(text) {
  const out = [];
  for (const token of String(text).split(/[\s,]+/)) {
    const code = normalizeCard(token);
    if (code) out.push(code);
  }
  return out;
}

/** The action word of a move text ("meld KS KD KC" -> "meld"). */
export const actionOf = (text) => String(text).trim().split(/\s+/)[0].toLowerCase();

/** Thousands with commas and an ASCII minus: 1315 -> "1,315", -35 -> "-35". */
export function formatPoints(n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "";
  const sign = n < 0 ? "-" : "";
  return sign + Math.abs(n).toLocaleString("en-US");
}

/** Create an element with a class and text (text always via textContent). */
export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null && text !== undefined) node.textContent = String(text);
  return node;
}
