// The log in words ("West took the pile: 7 cards, top 9♠"), built from the table's log of
// moves and the facts the server keeps with each (cards taken, melds added to, red threes laid
// out, your own draws), so a reload shows the same lines; announced through the ticker (aria-live).
import { actionOf, cardLabel, cardsInText, el, isWild, rankLabel, rankOf, rankPlural } from "/static/cards.js";
import { $, isPlayer, playerName, sideOfSeat, who } from "/static/game/state.js";

/**
 * The moves shown in `next` that `prev` had not (two state messages of one hand), as the engine recorded
 * them: each `table.log` entry is a move's public outcome (the pile's size and top card when taken, the
 * melds made and added to, red threes laid out, the hand's end), and `drawn` holds the cards new in your
 * own hand. The page never works out what a move did by comparing states. Null when not of one hand.
 */
export function changeOf(prev, next) {
  if (!prev || prev.table.hand !== next.table.hand) return null;
  const before = (prev.table.log || []).length;
  const log = next.table.log || [];
  if (log.length < before) return null;
  const entries = log.slice(before).map((e, i) => ({ ...e, index: before + i }));
  const last = entries.length ? entries[entries.length - 1] : null;
  return { entries, last, drew: last ? newCards(next, last) : [] };
}

/** The cards a log entry of your own put in your hand (a draw, a pile taken), as the server told you. */
export function newCards(msg, entry) {
  if (!isPlayer() || entry.seat !== msg.view.seat) return [];
  return (msg.drawn || {})[String(entry.index)] || [];
}

/** The melds a meld or pile move laid cards on: [{side, rank, cards}], the pile's top card with its own group. */
export function meldsOf(table, entry) {
  const word = actionOf(entry.move);
  if (word !== "meld" && word !== "pile") return [];
  const side = sideOfSeat(table, entry.seat);
  const groups = groupsOf(entry.move);
  if (word === "pile" && entry.top) {
    const rank = isWild(entry.top) ? null : rankOf(entry.top);
    const own = groups.find((g) => g.rank === rank);
    if (own) own.cards = [...own.cards, entry.top];
    else if (rank) groups.unshift({ rank, cards: [entry.top] });
  }
  return groups.filter((g) => g.cards.length).map((g) => ({ side, rank: g.rank, cards: g.cards }));
}

/** The groups of a meld or pile move: [{rank, cards}] ("meld K: 2C" names its rank). */
export function groupsOf(text) {
  const rest = String(text).trim().split(/\s+/).slice(1).join(" ");
  return rest.split(",").map((g) => g.trim()).filter(Boolean).map((group) => {
    const [head, tail] = group.includes(":") ? group.split(":") : [null, group];
    const cards = cardsInText(tail);
    const natural = cards.find((c) => !isWild(c));
    return { rank: head ? head.trim().toUpperCase() : natural ? rankOf(natural) : "W", cards };
  });
}

// A sentence is a list of parts: text, or {card: code} shown with its suit's colour.
const cardsPart = (cards) => cards.flatMap((c, i) => (i ? [" ", { card: c }] : [{ card: c }]));

/** "melded 6♥ 6♠ 6♦" for a new meld, "added 6♥ to the 6s" for one already on the table (`added`: its ranks). */
function meldWords(groups, added) {
  const parts = [];
  groups.forEach((g, i) => {
    if (i) parts.push(i === groups.length - 1 ? " and " : ", ");
    if (added.includes(g.rank)) parts.push("added ", ...cardsPart(g.cards), ` to the ${rankPlural(g.rank)}`);
    else parts.push("melded ", ...cardsPart(g.cards));
  });
  return parts;
}

/** One logged move in words, as parts. */
export function describe(msg, entry, index) {
  const { table } = msg;
  const name = who(table, entry.seat);
  const side = sideOfSeat(table, entry.seat);
  const added = entry.added || [];
  const word = actionOf(entry.move);
  const parts = [name + " "];
  if (word === "draw") {
    // The server tells each seat the cards it drew itself (`drawn`), and nobody else's.
    const drew = ((msg.drawn || {})[String(index)] || []);
    parts.push(...(drew.length ? ["drew ", ...cardsPart(drew)] : ["drew from the stock"]));
  } else if (word === "discard") {
    parts.push("discarded ", ...cardsPart(cardsInText(entry.move)));
  } else if (word === "pile") {
    parts.push("took the pile");
    if (entry.took) parts.push(`: ${entry.took} card${entry.took === 1 ? "" : "s"}`);
    if (entry.top) parts.push(entry.took ? ", top " : ": top ", { card: entry.top });
    const groups = groupsOf(entry.move);
    const own = groups.length ? groups[0] : null;
    if (own && own.cards.length) parts.push(" with ", ...cardsPart(own.cards));
    if (groups.length > 1) parts.push(", then ", ...meldWords(groups.slice(1), added));
  } else if (word === "meld") {
    parts.push(...meldWords(groupsOf(entry.move), added));
  } else if (word === "ask") {
    const partner = (table.sides[side] || []).find((s) => s !== entry.seat);
    parts.push(`asked ${partner === undefined ? "a partner" : who(table, partner)}: \u201cMay I go out?\u201d`);
  } else if (word === "yes" || word === "no") {
    parts.push(`answered ${word}`);
  } else parts.push(entry.move);
  const result = msg.view.result || (table.status !== "playing" && (table.results || []).slice(-1)[0]);
  if (result && result.went_out === entry.seat && index === (table.log || []).length - 1) {
    parts.push(result.concealed ? " and went out concealed" : " and went out");
  }
  return parts;
}

export const partsText = (parts) => parts.map((p) => (typeof p === "string" ? p : cardLabel(p.card))).join("");

function partsNode(parts, cls) {
  const span = el("span", cls);
  for (const p of parts) {
    if (typeof p === "string") span.append(document.createTextNode(p));
    else span.append(el("span", "log-card " + (p.card === "JK" ? "joker" : "suit-" + p.card[1]), cardLabel(p.card)));
  }
  return span;
}

/** Red threes laid out with a move, as their own lines. */
function redLines(msg, entry) {
  return (entry.reds || []).map(({ seat, cards }) => {
    const name = who(msg.table, seat);
    const one = cards.length === 1;
    return [`${name} laid out ${one ? "a red three" : `${cards.length} red threes`}: `, ...cardsPart(cards)];
  });
}

/** Every line of this hand, in words: [{seat, move, parts, note: bool}]. */
export function lines(msg) {
  const { table, view } = msg;
  const out = [];
  const dealer = view.dealer;
  out.push({ parts: [`Hand ${table.hand} dealt by ${who(table, dealer)}.`], note: true });
  // What the deal showed (the engine's record of it): the pile as turned up, red threes laid out at once.
  const dealt = table.dealt || {};
  if ((dealt.pile || []).length) out.push({ parts: ["The pile starts with ", ...cardsPart(dealt.pile)], note: true });
  for (const { side, cards } of dealt.reds || []) {
    const names = (table.sides[side] || []).map((s) => who(table, s)).join(" & ");
    const what = cards.length === 1 ? "a red three" : `${cards.length} red threes`;
    out.push({ parts: [`${names} laid out ${what}: `, ...cardsPart(cards)], note: true });
  }
  (table.log || []).forEach((entry, index) => {
    out.push({ seat: entry.seat, move: entry.move, parts: describe(msg, entry, index) });
    for (const parts of redLines(msg, entry)) out.push({ seat: entry.seat, parts, note: true });
  });
  return out;
}

export function renderLog(msg) {
  const list = $("log");
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  const all = lines(msg);
  for (const line of all) {
    const li = el("li", line.note ? "log-note" : "log-entry");
    if (line.seat !== undefined) li.dataset.seat = String(line.seat);
    if (!line.note) li.dataset.move = line.move;
    li.append(partsNode(line.parts, "log-text"));
    list.append(li);
  }
  if (nearBottom || list.dataset.rendered !== String(msg.table.hand)) list.scrollTop = list.scrollHeight;
  list.dataset.rendered = String(msg.table.hand);
  // The ticker on the table shows (and announces) the newest line.
  const newest = all[all.length - 1];
  const ticker = $("last-move");
  const text = partsText(newest.parts);
  if (ticker.dataset.text !== text) {
    ticker.replaceChildren(partsNode(newest.parts, "ticker-text"));
    ticker.dataset.text = text;
  }
}

/** "9s" for a rank, for the explainers. */
export const rankWord = (rank) => (rank === "W" ? "wild cards" : `${rankLabel(rank)}s`);
export { playerName };
