// The engine's texts as a player reads them: a refusal in a sentence with cards as on the table
// (K♠, 10♦, Joker) and no move notation, and each choice of the chooser as what it does
// ("Meld 9♠ 9♥ 9♦ and add Joker to your kings").  The engine's own sentences are not changed.
import { actionOf, cardLabel, isWild, rankOf, rankPlural } from "/static/cards.js";
import { groupsOf } from "/static/game/log.js";

const CARD = /\b(JK|[AKQJT98765432][SHDC])\b/g;
// ": meld A: JK, KD" at the end of an engine sentence: the move it refused, in notation.
const MOVE_TAIL = /:\s+(?:draw|pile|meld|discard|ask|yes|no)(?:[\s,]+(?:[AKQJT98765432W]:|JK|[AKQJT98765432][SHDC]))*\s*\.?\s*$/;

/**
 * An engine sentence as the page shows it: without the move in notation at its end, cards as on the
 * table, capitalised, with a full stop ("a new meld needs ...: meld A: JK, KD" -> "A new meld needs ....").
 */
export function sentence(text) {
  let said = String(text || "").trim().replace(MOVE_TAIL, "").trim();
  said = said.replace(CARD, (code) => cardLabel(code));
  if (!said) return "";
  said = said.charAt(0).toUpperCase() + said.slice(1);
  return /[.!?\u2026]$/.test(said) ? said : `${said}.`;
}

const cardsWords = (cards) => cards.map(cardLabel).join(" ");

/** "a, b and c". */
function joined(phrases) {
  if (phrases.length <= 1) return phrases.join("");
  return `${phrases.slice(0, -1).join(", ")} and ${phrases[phrases.length - 1]}`;
}

/**
 * What a meld or pile move does, group by group: [{rank, cards, adds}] where `adds` is true for a group
 * that joins the side's meld of its rank (`melded`: the ranks the side has on the table), and for the
 * pile, the top card's group first with `top` among its cards.
 */
export function placements(move, melded, top = null) {
  const word = actionOf(move);
  const groups = groupsOf(move).filter((g) => g.cards.length);
  const out = groups.map((g) => ({ rank: g.rank, cards: g.cards, adds: melded.has(g.rank), top: false }));
  if (word === "pile" && top) {
    const rank = isWild(top) ? null : rankOf(top);
    const own = out.find((g) => g.rank === rank);
    if (own) own.top = true;
    else if (rank) out.unshift({ rank, cards: [], adds: melded.has(rank), top: true });
  }
  return out;
}

/**
 * A choice of the chooser in words, saying what it does: "Add 2♠ to your kings", "Meld 9♠ 9♥ 9♦ and
 * add Joker to your kings", "Take the pile with 9♠ 9♥ onto your nines, then meld K♠ K♥ K♣".
 */
export function choiceLabel(move, melded, top = null) {
  const word = actionOf(move);
  const phrases = [];
  let lead = "";
  for (const g of placements(move, melded, top)) {
    const shown = cardsWords(g.cards);
    const kind = g.rank === "W" ? " as a meld of wild cards" : "";
    if (g.top) {
      const withCards = shown ? ` with ${shown}` : "";
      lead = g.adds ? `Take the pile${withCards} onto your ${rankPlural(g.rank)}` : `Take the pile${withCards}${kind}`;
    } else if (g.adds) phrases.push(`add ${shown} to your ${rankPlural(g.rank)}`);
    else phrases.push(`meld ${shown}${kind}`);
  }
  if (word === "pile") {
    const start = lead || "Take the pile";
    return phrases.length ? `${start}, then ${joined(phrases)}` : start;
  }
  const text = joined(phrases);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The ranks of the side's melds a move adds cards to (the melds to point at while its choice is looked at). */
export function meldsJoined(move, melded, top = null) {
  return placements(move, melded, top).filter((g) => g.adds).map((g) => g.rank);
}
