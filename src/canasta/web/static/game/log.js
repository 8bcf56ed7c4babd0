// The log in words ("West took the pile: 7 cards, top 9♠"), built from the table's log of
// moves and from what changed between successive states (cards taken, red threes laid out),
// and announced to screen readers through the ticker (aria-live polite).
import { actionOf, cardLabel, cardsInText, el, isWild, rankLabel, rankOf, rankPlural } from "/static/cards.js";
import { $, isPlayer, minus, playerName, sideOfSeat, ui, who } from "/static/game/state.js";

/** What changed from `prev` to `next` (two state messages); null when they are not of one hand. */
export function diffStates(prev, next) {
  if (!prev || prev.table.hand !== next.table.hand) return null;
  const before = prev.table.log || [];
  const after = next.table.log || [];
  if (after.length < before.length) return null;
  const entries = after.slice(before.length).map((e, i) => ({ ...e, index: before.length + i }));
  const pv = prev.view;
  const nv = next.view;
  const reds = [];
  const melds = [];
  (nv.red_threes || []).forEach((cards, side) => {
    const added = minus(cards, (pv.red_threes || [])[side] || []);
    if (added.length) reds.push({ side, cards: added });
  });
  (nv.melds || []).forEach((sideMelds, side) => {
    const old = (pv.melds || [])[side] || {};
    for (const [rank, cards] of Object.entries(sideMelds || {})) {
      const added = minus(cards, old[rank] || []);
      if (added.length) melds.push({ side, rank, cards: added, created: !old[rank] });
    }
  });
  const mine = isPlayer();
  return {
    entries,
    last: entries.length ? entries[entries.length - 1] : null,
    pileBefore: pv.pile || [],
    pileAfter: nv.pile || [],
    reds,
    melds,
    handAdded: mine ? minus(nv.hand || [], pv.hand || []) : [],
    handRemoved: mine ? minus(pv.hand || [], nv.hand || []) : [],
    existing: (pv.melds || []).map((m) => Object.keys(m || {})),
  };
}

/** Keep the facts of the move just seen that its notation leaves out. */
export function noteChange(next, change) {
  const hand = next.table.hand;
  const log = next.table.log || [];
  // The pile's size at the deal, for counting the cards of a take seen only after a reload.
  if (!ui.pileStart.has(hand) && !log.some((e) => actionOf(e.move) === "pile")) {
    const discards = log.filter((e) => actionOf(e.move) === "discard").length;
    ui.pileStart.set(hand, (next.view.pile || []).length - discards);
  }
  if (!change || !change.last) return;
  const { last } = change;
  const word = actionOf(last.move);
  const note = { existing: change.existing, reds: [] };
  if (word === "pile") {
    note.count = change.pileBefore.length;
    note.top = change.pileBefore[change.pileBefore.length - 1] || null;
  }
  if (word === "draw" && isPlayer() && last.seat === ui.seat) note.drew = change.handAdded.filter((c) => c !== "3H" && c !== "3D");
  for (const { side, cards } of change.reds) {
    // Red threes of the mover's side were laid out by the mover; others by the player whose turn begins.
    const layer = sideOfSeat(next.table, last.seat) === side ? last.seat : next.view.turn;
    note.reds.push({ seat: layer, cards });
  }
  ui.notes.set(`${hand}:${last.index}`, note);
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

function meldWords(groups, existing, pronoun) {
  const parts = [];
  groups.forEach((g, i) => {
    if (i) parts.push(i === groups.length - 1 ? " and " : ", ");
    if (existing.includes(g.rank)) parts.push("added ", ...cardsPart(g.cards), ` to ${pronoun} ${rankPlural(g.rank)}`);
    else parts.push("melded ", ...cardsPart(g.cards));
  });
  return parts;
}

/** Count and top card of a pile take seen only in the log (after a reload). */
function reconstructTake(log, index, hand) {
  let size = ui.pileStart.has(hand) ? ui.pileStart.get(hand) : null;
  let top = null;
  for (let i = 0; i < index; i += 1) {
    const word = actionOf(log[i].move);
    if (word === "discard") {
      top = cardsInText(log[i].move)[0] || null;
      if (size !== null) size += 1;
    } else if (word === "pile") {
      size = 0;
      top = null;
    }
  }
  return { count: size, top };
}

/** One logged move in words, as parts. */
export function describe(msg, entry, index) {
  const { table } = msg;
  const note = ui.notes.get(`${table.hand}:${index}`) || {};
  const name = who(table, entry.seat);
  const you = name === "You";
  const side = sideOfSeat(table, entry.seat);
  const existing = (note.existing && note.existing[side]) || [];
  const pronoun = you ? "your" : (table.sides[side] || []).length > 1 ? "their side's" : "their";
  const word = actionOf(entry.move);
  const parts = [name + " "];
  if (word === "draw") {
    if (note.drew && note.drew.length) parts.push("drew ", ...cardsPart(note.drew));
    else parts.push(msg.view && you ? "drew" : "drew from the stock");
  } else if (word === "discard") {
    parts.push("discarded ", ...cardsPart(cardsInText(entry.move)));
  } else if (word === "pile") {
    const facts = note.count !== undefined ? note : reconstructTake(table.log || [], index, table.hand);
    parts.push("took the pile");
    const bits = [];
    if (facts.count) bits.push(`${facts.count} card${facts.count === 1 ? "" : "s"}`);
    if (bits.length || facts.top) parts.push(": ", bits.join(""));
    if (facts.top) parts.push(bits.length ? ", top " : "top ", { card: facts.top });
    const groups = groupsOf(entry.move);
    const own = groups.length ? groups[0] : null;
    if (own && own.cards.length) parts.push(" with ", ...cardsPart(own.cards));
    if (groups.length > 1) parts.push(", then ", ...meldWords(groups.slice(1), existing, pronoun));
  } else if (word === "meld") {
    parts.push(...meldWords(groupsOf(entry.move), existing, pronoun));
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
function redLines(msg, note) {
  return (note.reds || []).map(({ seat, cards }) => {
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
  (table.log || []).forEach((entry, index) => {
    out.push({ seat: entry.seat, move: entry.move, parts: describe(msg, entry, index) });
    const note = ui.notes.get(`${table.hand}:${index}`);
    if (note) for (const parts of redLines(msg, note)) out.push({ seat: entry.seat, parts, note: true });
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
