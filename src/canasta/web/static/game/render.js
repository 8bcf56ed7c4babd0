// The table: seats around the felt, each side's melds near its players, stock and pile in the
// middle, the scores and the turn in the top bar, and the action buttons with their reasons.
import {
  actionOf, cardLabel, cardName, cardsInText, el, formatPoints, isBlackThree, isWild, makeCard, MELD_RANK_ORDER,
  rankPlural, sortCards,
} from "/static/cards.js";
import { greyReason, onMeldClick, sendMove } from "/static/game/actions.js";
import { markHighlight } from "/static/game/hand.js";
import { canastaKind, pointsOnTable } from "/static/game/points.js";
import { choiceLabel, meldsJoined, sentence } from "/static/game/words.js";
import {
  $, bottomSeat, isPlayer, keysFor, legalActions, myTurn, playerName, positionOf, rulesLink, rulesOf, sideNames,
  sideOfSeat, sideTitle, ui,
} from "/static/game/state.js";

const ACTIONS = ["draw", "pile", "meld", "discard", "ask", "yes", "no"];
const PHASE_WORDS = {
  draw: "draw or take the pile",
  play: "meld, then discard",
  answer: "answer: may their partner go out?",
  over: "hand over",
};

/** The player's own turn after asking "may I go out?": canasta.text.labels.PLAY_WORDS, word for word. */
const PLAY_ANSWERED = {
  true: "your partner said yes: you must go out now",
  false: "your partner said no: you may not go out this turn",
};
/** The same turn as the other seats see it. */
const ANSWERED_FOR_OTHERS = {
  true: "their partner said yes: they go out now",
  false: "their partner said no: meld, then discard",
};

/** A "?" that opens one of the page's explainers (popovers in game.html). */
export function explain(topic, label) {
  const button = el("button", "explain", "?");
  button.type = "button";
  button.setAttribute("popovertarget", `explain-${topic}`);
  button.setAttribute("aria-label", label);
  button.title = label;
  return button;
}

// The turn timer: the server sends the seconds left when it sent the state (no clock to agree on);
// the page counts down from when the message came.
let turnClock = { until: 0, timer: 0 };

function showTurnClock() {
  const clock = $("turn-clock");
  const left = Math.max(0, Math.ceil((turnClock.until - performance.now()) / 1000));
  clock.textContent = `\u23f1 ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.classList.toggle("short", left <= 10);
  if (left <= 0 && turnClock.timer) {
    clearInterval(turnClock.timer);
    turnClock.timer = 0;
  }
}

function startTurnClock(left) {
  const clock = $("turn-clock");
  if (turnClock.timer) clearInterval(turnClock.timer);
  turnClock.timer = 0;
  if (typeof left !== "number") {
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  turnClock.until = performance.now() + left * 1000;
  showTurnClock();
  turnClock.timer = setInterval(showTurnClock, 250);
}

export function renderHeader(msg) {
  const { table, view } = msg;
  const status = { playing: "playing", hand_over: "hand over", over: "match over" }[table.status] || table.status;
  $("table-status").textContent = `Hand ${table.hand} \u00b7 ${status}${ui.role === "spectator" ? " \u00b7 watching" : ""}`;
  // On a phone the top bar has room for the hand and the target only here; the menu says them in full.
  $("match-facts").replaceChildren(el("span", "", `Hand ${table.hand}`), el("span", "", ` to ${formatPoints(table.target)}`));
  $("table-facts").textContent = `Hand ${table.hand} of a match to ${formatPoints(table.target)} points`
    + `${ui.role === "spectator" ? "; you are watching" : ""}.`;
  const turn = $("turn");
  if (table.status === "over") turn.textContent = "Match over";
  else if (table.status === "hand_over" || view.phase === "over") turn.textContent = "Hand over";
  else {
    const name = playerName(table, view.to_act);
    const mine = isPlayer() && view.to_act === ui.seat;
    if (view.phase === "answer") {
      const asker = playerName(table, view.turn);
      turn.textContent = mine
        ? `${asker} asks you: \u201cMay I go out?\u201d Answer yes or no`
        : `${name} answers ${asker}: may they go out?`;
    } else {
      const left = mine && Boolean((table.players[ui.seat] || {}).computer);
      const whose = left ? "The computer plays your turn" : mine ? "Your turn" : `${name}\u2019s turn`;
      // After "may I go out?", the partner's answer decides the turn (the terminal says the same words).
      const words = view.phase === "play" && view.answer !== null && view.answer !== undefined
        ? (mine ? PLAY_ANSWERED[view.answer] : ANSWERED_FOR_OTHERS[view.answer])
        : PHASE_WORDS[view.phase] || view.phase;
      turn.textContent = `${whose}: ${words}`;
    }
  }
  turn.dataset.seat = String(view.to_act);
  turn.classList.toggle("mine", myTurn(msg));
  startTurnClock(table.turn_left);
  $("rules-link").href = rulesLink(msg);
}

export function renderScores(msg) {
  const { table, view } = msg;
  const box = $("scores");
  box.replaceChildren();
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  table.sides.forEach((seats, side) => {
    const item = el("div", "score-side");
    item.dataset.side = String(side);
    if (side === mySide) item.classList.add("mine");
    if (table.winner === side) item.classList.add("winner");
    const names = el("span", "score-names", sideNames(table, side));
    if (side === mySide) names.append(el("span", "your-side", " (your side)"));
    item.append(names);
    const score = el("span", "score-value", formatPoints(table.scores[side]));
    score.dataset.value = String(table.scores[side]);
    item.append(score);
    const minimum = (view.minimums || [])[side];
    if (minimum !== undefined && table.status === "playing") {
      const melded = Object.keys((view.melds || [])[side] || {}).length > 0;
      const min = el("span", "score-min", melded ? "melded \u2713" : `first meld ${minimum}`);
      min.dataset.minimum = String(minimum);
      min.title = melded ? "This side has made its first meld this hand" : `This side's first meld must be worth ${minimum} points`;
      item.append(min);
    }
    box.append(item);
  });
  const target = el("span", "score-target", `playing to ${formatPoints(table.target)}`);
  box.append(target);
  if (table.status === "playing") box.append(explain("minimum", "What is the first-meld minimum?"));
}

/** A seat's rating in the game's family beside its name (docs/room.md): "27.3", "25.0?" while provisional. */
function ratingChip(p) {
  const chip = el("span", "player-rating", p.rating.toFixed(1) + (p.provisional ? "?" : ""));
  chip.dataset.rating = String(p.rating);
  chip.title = p.provisional ? `Rating ${p.rating.toFixed(1)}, provisional: few rated matches yet`
    : `Rating ${p.rating.toFixed(1)}`;
  chip.prepend(el("span", "visually-hidden", "rating "));
  if (p.provisional) chip.append(el("span", "visually-hidden", " provisional"));
  return chip;
}

export function renderPlayers(msg) {
  const { table, view } = msg;
  const list = $("players");
  list.replaceChildren();
  const felt = $("felt");
  felt.dataset.players = String(table.players.length);
  felt.style.setProperty("--others", String(Math.max(1, table.players.length - 1)));
  const n = table.players.length;
  for (const p of table.players) {
    const li = el("li", "player");
    li.dataset.seat = String(p.seat);
    // Seen from the bottom seat, clockwise: the next seat sits on the left (a row, left to right, on a phone).
    li.style.order = String((p.seat - bottomSeat() + n) % n);
    const side = sideOfSeat(table, p.seat);
    li.dataset.side = String(side);
    li.dataset.pos = positionOf(table, p.seat);
    const me = p.seat === ui.seat && isPlayer();
    if (me) li.classList.add("me");
    const acting = table.status === "playing" && view.to_act === p.seat && view.phase !== "over";
    if (acting) {
      li.classList.add("acting");
      li.setAttribute("aria-current", "true");
    }
    const head = el("div", "player-head");
    const dot = el("span", "dot" + (p.connected || p.kind !== "human" ? " on" : ""));
    dot.setAttribute("aria-hidden", "true");
    const name = el("span", "player-name", p.name + (me && p.name.toLowerCase() !== "you" ? " (you)" : ""));
    head.append(dot, name);
    if (typeof p.rating === "number") head.append(ratingChip(p));
    if (view.dealer === p.seat) {
      const d = el("span", "dealer-chip", "D");
      d.title = "Dealer";
      d.setAttribute("aria-hidden", "true");
      head.append(d);
    }
    li.append(head);
    const facts = [];
    if (p.kind !== "human") facts.push(`computer (${p.kind})`);
    else if (p.computer) facts.push(p.away ? "away: the computer plays" : "the computer plays");
    else facts.push(p.connected ? "online" : "away");
    if (view.dealer === p.seat) facts.push("dealer");
    if (view.sitting_out === p.seat) facts.push("sits out");
    if (acting) facts.push(view.phase === "answer" ? "answering" : "to play");
    li.append(el("span", "player-facts", facts.join(" \u00b7 ")));
    const size = (view.hand_sizes || [])[p.seat];
    if (size !== undefined && view.sitting_out !== p.seat) {
      const row = el("span", "seat-cards");
      if (!me) {
        const fan = el("span", "backs");
        fan.setAttribute("aria-hidden", "true");
        for (let i = 0; i < Math.min(size, 6); i += 1) fan.append(el("span", "mini-back"));
        row.append(fan);
      }
      // "18 cards"; on a phone, where the seats share a row, the word gives way to a card back.
      const count = el("span", "hand-size", String(size));
      count.append(el("span", "cards-word", ` card${size === 1 ? "" : "s"}`));
      count.dataset.seat = String(p.seat);
      row.append(count);
      li.append(row);
    }
    const known = (view.known || [])[p.seat] || [];
    if (known.length && !me) {
      const k = el("span", "known");
      k.append(el("span", "", "holds "));
      k.append(el("span", "known-cards", sortCards(known).map(cardLabel).join(" ")));
      k.title = "Cards this player took with the pile and has not played";
      li.append(k);
    }
    list.append(li);
  }
}

export function renderSides(msg) {
  const { table, view } = msg;
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const bottomSide = sideOfSeat(table, bottomSeat());
  const others = $("others");
  const mine = $("mine-row");
  others.replaceChildren();
  mine.replaceChildren();
  const rules = rulesOf(msg);
  table.sides.forEach((seats, side) => {
    const panel = el("section", "side");
    panel.dataset.side = String(side);
    if (side === mySide) panel.classList.add("mine");
    const head = el("h2", "side-head");
    head.id = `side-head-${side}`;
    panel.setAttribute("aria-labelledby", head.id);
    head.append(el("span", "side-names", sideTitle(table, side)));
    const melds = (view.melds || [])[side] || {};
    const ranks = Object.keys(melds).sort((a, b) => MELD_RANK_ORDER.indexOf(a) - MELD_RANK_ORDER.indexOf(b));
    const facts = el("span", "side-facts");
    const minimum = (view.minimums || [])[side];
    if (!ranks.length && minimum) facts.append(el("span", "side-min", `first meld ${minimum}`));
    const onTable = pointsOnTable(view, side);
    if (onTable !== null) {
      const pts = el("span", "side-points", `${formatPoints(onTable)} on the table`);
      pts.dataset.value = String(onTable);
      pts.title = "Melded cards, canasta bonuses and red threes this hand (cards in hand not counted)";
      facts.append(pts);
    }
    head.append(facts);
    // The side's red threes sit beside its name, as small cards: they are bonuses, not melds.
    const bar = el("div", "side-bar");
    bar.append(head);
    const reds = (view.red_threes || [])[side] || [];
    if (reds.length) {
      const r = el("span", "red-threes");
      r.dataset.side = String(side);
      r.setAttribute("role", "img");
      r.setAttribute("aria-label", `Red threes: ${reds.map(cardName).join(", ")}`);
      r.title = `Red threes: ${reds.map(cardLabel).join(" ")}`;
      for (const code of reds) {
        const chip = el("span", "red-chip", cardLabel(code));
        chip.dataset.card = code;
        r.append(chip);
      }
      bar.append(r);
    }
    panel.append(bar);
    const row = el("div", "melds");
    for (const rank of ranks) row.append(renderMeld(view, side, rank, melds[rank], side === mySide));
    if (!ranks.length) row.append(el("p", "empty-melds", "No melds yet"));
    panel.append(row);
    (side === bottomSide ? mine : others).append(panel);
  });
}

function renderMeld(view, side, rank, cards, mine) {
  // A meld of one's own side is a button (add the selected cards to it): a clear button laid over
  // the cards, so that its name is the label in words and the cards are only drawn.
  const node = el("div", mine ? "meld mine" : "meld");
  if (!mine) node.setAttribute("role", "group");
  node.dataset.side = String(side);
  node.dataset.rank = rank;
  const wilds = cards.filter(isWild).length;
  const kind = canastaKind(view, side, rank);
  let label = `${cards.length} ${rankPlural(rank)}`;
  const row = el("div", "meld-cards");
  const sorted = sortCards(cards);
  if (kind) {
    // A canasta is squared up: its top card shows (a natural one), the count says the rest.
    node.classList.add("canasta", kind);
    label += `, ${kind} canasta`;
    const top = sorted.find((c) => !isWild(c)) || sorted[0];
    row.append(makeCard(top, { small: true }));
  } else {
    // The wild cards lie under the natural ones, so the card on top always shows the meld's rank.
    const fan = [...sorted.filter(isWild), ...sorted.filter((c) => !isWild(c))];
    for (const code of fan) row.append(makeCard(code, { small: true }));
  }
  node.append(row);
  const count = el("span", "meld-count", kind ? `${cards.length}${kind === "natural" ? "\u2605" : "\u2606"}` : String(cards.length));
  count.setAttribute("aria-hidden", "true");
  node.append(count);
  if (wilds) label += `, ${wilds} wild`;
  label += `: ${sorted.map(cardLabel).join(" ")}`;
  node.title = label;
  if (mine) {
    const hit = el("button", "meld-hit");
    hit.type = "button";
    hit.setAttribute("aria-label", `${label}. Add the selected cards to it`);
    hit.dataset.side = String(side);
    hit.dataset.rank = rank;
    hit.addEventListener("click", () => onMeldClick(rank));
    node.append(hit);
  } else node.setAttribute("aria-label", label);
  return node;
}

export function renderCenter(msg) {
  const { table, view } = msg;
  $("stock-size").textContent = String(view.stock_size);
  $("stock").classList.toggle("empty", !view.stock_size);
  const pile = view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const topBox = $("pile-top");
  topBox.replaceChildren();
  topBox.dataset.card = top || "";
  // Cards under the top that freeze or matter peek out from under it (a wild card laid crosswise).
  const under = pile.slice(0, -1).filter((c) => isWild(c) || c === "3H" || c === "3D");
  if (under.length) {
    const peek = el("span", "under", `under: ${[...new Set(under)].map(cardLabel).join(" ")}`);
    topBox.append(peek);
  }
  if (top) topBox.append(makeCard(top));
  else topBox.append(el("div", "card empty", "empty"));
  topBox.classList.toggle("has-wild-under", under.length > 0);
  topBox.setAttribute("aria-label", top ? `Discard pile: ${pile.length} cards, ${cardName(top)} on top` : "Discard pile: empty");
  $("pile-size").textContent = String(pile.length);

  const state = $("pile-state");
  state.replaceChildren();
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const frozen = Boolean(view.pile_frozen);
  const blocked = Boolean(view.pile_blocked);
  const frozenForMe = mySide !== null && Boolean((view.pile_frozen_for || [])[mySide]);
  let word = "open";
  let topic = null;
  if (!pile.length) word = "empty";
  else if (frozen) {
    word = "frozen";
    topic = "frozen";
  } else if (blocked) {
    word = "blocked";
    topic = isBlackThree(top) ? "black-three" : "frozen";
  } else if (frozenForMe) {
    word = "frozen for you";
    topic = "frozen";
  }
  state.dataset.state = word;
  state.append(el("span", "pile-word", word === "frozen" ? "\u2744 frozen" : word));
  if (topic) state.append(explain(topic, topic === "black-three" ? "Why does a black three block the pile?" : "What is a frozen pile?"));
  state.classList.toggle("frozen", frozen);
  state.classList.toggle("blocked", blocked);
  renderPileChoices(msg);
}

export function renderPileChoices(msg) {
  const box = $("pile-choices");
  box.replaceChildren();
  markMelds([]);
  const legal = msg.legal || [];
  const offered = ui.choiceMoves && ui.choiceFor === msg.state ? ui.choiceMoves : []; // the engine's, for this state
  const moves = offered.length ? offered : legal.filter((m) => actionOf(m) === "pile");
  if (!ui.choosing || !myTurn(msg) || !moves.length) {
    ui.choosing = false;
    ui.choiceMoves = null;
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const { view, table } = msg;
  const side = sideOfSeat(table, ui.seat);
  const melded = new Set(Object.keys((view.melds || [])[side] || {}));
  const pile = view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const pileMoves = actionOf(moves[0]) === "pile";
  box.append(el("p", "choices-title", pileMoves ? "How do you take the pile?" : "Where do your cards go?"));
  // While a choice is pointed at or focused, its cards light up in the hand and the melds it joins on the table;
  // the pointer leaving it gives the outline back to the focused choice, if any.
  const previews = new Map();
  const rest = () => {
    const focused = previews.get(document.activeElement);
    if (focused) focused();
    else {
      markHighlight(ui.hintFor === msg.state ? ui.highlight : new Set());
      markMelds([]);
    }
  };
  for (const move of moves) {
    const button = el("button", "choice", choiceLabel(move, melded, top));
    button.type = "button";
    button.dataset.move = move;
    const joins = meldsJoined(move, melded, top);
    button.dataset.melds = joins.join(" ");
    button.addEventListener("click", () => sendMove(move));
    const preview = () => {
      markHighlight(keysFor(msg.view, cardsInText(move)));
      markMelds(joins);
    };
    previews.set(button, preview);
    button.addEventListener("mouseenter", preview);
    button.addEventListener("focus", preview);
    button.addEventListener("mouseleave", rest);
    button.addEventListener("blur", () => {
      if (!button.matches(":hover")) requestAnimationFrame(rest); // after the focus has moved on
    });
    box.append(button);
  }
  const cancel = el("button", "choice cancel", "Cancel");
  cancel.type = "button";
  cancel.id = "btn-cancel-choice";
  box.append(cancel);
  placeChooser();
}

/** Outline the melds of your side that a choice joins (`ranks`: none, to clear). */
export function markMelds(ranks) {
  const wanted = new Set(ranks);
  for (const meld of document.querySelectorAll("#sides .side.mine .meld")) {
    meld.classList.toggle("target", wanted.has(meld.dataset.rank));
  }
}

/** The chooser lies over the table above your side's melds, so that the melds it points at stay in view. */
export function placeChooser() {
  const box = $("pile-choices");
  if (box.hidden) return;
  const board = $("sides").getBoundingClientRect();
  const mine = $("mine-row").getBoundingClientRect();
  box.style.maxHeight = `${Math.max(132, mine.top - board.top - 6)}px`;
}

/**
 * Why an action is not offered now, in one sentence (null when it is): for the seat to act,
 * the engine's own sentence: with cards selected, about them (selection.choices, asked when the
 * button is pointed at); else `reasons` in the state message (judge.unavailable_reason).
 */
export function whyNot(action, msg, words) {
  const { table, view } = msg;
  if (!isPlayer()) return "Spectators watch; they do not play.";
  if (table.status !== "playing" || view.phase === "over") return "The hand is over.";
  if (words.has(action)) return null;
  if (!myTurn(msg)) {
    const name = playerName(table, view.to_act);
    return view.phase === "answer" ? `Waiting for ${name} to answer.` : `It is ${name}\u2019s turn.`;
  }
  const chosen = greyReason(action);
  if (chosen === "") return "Checking the cards selected\u2026";
  const why = chosen === undefined ? (msg.reasons || {})[action] : chosen;
  return why ? sentence(why) : "Not now.";
}

export function renderActions(msg) {
  const { table, view } = msg;
  const words = legalActions(msg);
  const mine = myTurn(msg);
  for (const action of ACTIONS) {
    const button = $("btn-" + action);
    const reason = whyNot(action, msg, words);
    setEnabled(button, !reason, reason);
  }
  const answering = mine && view.phase === "answer";
  $("btn-yes").hidden = !answering && !words.has("yes");
  $("btn-no").hidden = !answering && !words.has("no");
  const playing = table.status === "playing";
  for (const id of [...ACTIONS.filter((a) => a !== "yes" && a !== "no"), "hint", "clear"]) {
    $("btn-" + id).hidden = !playing || (answering && id !== "hint");
  }
  $("move-form").hidden = !playing || !isPlayer();
  $("btn-result").hidden = playing;
  setEnabled($("btn-hint"), mine, isPlayer() ? "Hints are for your own turn." : "Spectators watch; they do not play.");
  // Asking needs a partner and the ask_partner rule (on unless the rules say otherwise).
  const mySide = isPlayer() ? sideOfSeat(table, ui.seat) : null;
  const noPartner = mySide !== null && (table.sides[mySide] || []).length < 2;
  const noAsking = rulesOf(msg).ask_partner === false;
  if (playing && !answering) $("btn-ask").hidden = (noPartner || noAsking) && !words.has("ask");
  $("action-bar").classList.toggle("my-turn", mine);
}

/** Enable a button, or grey it out with its reason (still focusable, so the reason can be read). */
export function setEnabled(button, on, reason) {
  button.disabled = false;
  if (on) {
    button.removeAttribute("aria-disabled");
    button.removeAttribute("title");
    delete button.dataset.why;
  } else {
    button.setAttribute("aria-disabled", "true");
    button.title = reason || "";
    button.dataset.why = reason || "";
  }
}
