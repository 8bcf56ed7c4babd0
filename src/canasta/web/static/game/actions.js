// What the buttons, the melds and the typed move do: the engine's selection service (a `resolve`
// message) says what the selected cards can mean, and the page plays, offers or explains its answer;
// a greyed-out button says why instead, about the cards selected now.
import { actionOf, cardsInText, rankPlural } from "/static/cards.js";
import { request } from "/static/game/connection.js";
import { clearSelection, markHighlight } from "/static/game/hand.js";
import { renderActions, renderPileChoices } from "/static/game/render.js";
import { $, keysFor, myTurn, selectedCodes, ui } from "/static/game/state.js";
import { sentence } from "/static/game/words.js";

export function setStatus(text, kind = "info") {
  const node = $("status");
  node.textContent = text;
  node.dataset.kind = kind;
  delete node.dataset.move;
  document.dispatchEvent(new Event("status-changed")); // the table fits itself around a longer line
}

export function sendMove(text) {
  text = text.trim().replace(/\s+/g, " ");
  if (!text) return;
  if (!request("move", { move: text }, text)) setStatus("Not connected; reconnecting\u2026", "error");
}

function doDraw() {
  sendMove("draw");
}

function doMeld() {
  const cards = selectedCodes();
  if (!cards.length) {
    setStatus("Select the cards to meld first.", "error");
    return;
  }
  askEngine("meld", cards);
}

// The resolves sent and not yet answered, by id: what each was for.  The server works out one
// resolve of a seat at a time, so the page sends one at a time too (a play waits for a lookup).
const asked = new Map();
let waiting = null; // a resolve to play, held back while a lookup is answered
// The engine's sentence for a greyed-out button and the cards selected: "state|action|cards" -> sentence.
const greyReasons = new Map();

function sendResolve(fields, purpose) {
  for (const [id, a] of asked) if (Date.now() - a.at > 5000) asked.delete(id); // lost with a connection
  if (asked.size) {
    if (!waiting || !purpose.why) waiting = [fields, purpose]; // a lookup never pushes a move aside
    return true;
  }
  if (!request("resolve", fields, purpose.why ? "why" : "resolve")) return false;
  if (!purpose.why) waiting = null; // the newest move asked for replaces one held back
  asked.set(ui.counter, { ...purpose, at: Date.now() }); // request() numbered it
  return true;
}

function answered(id) {
  const purpose = asked.get(id);
  asked.delete(id);
  if (waiting && !asked.size) {
    const [fields, held] = waiting;
    waiting = null;
    if (ui.last && held.state === ui.last.state) sendResolve(fields, held);
  }
  return purpose;
}

/**
 * Ask the engine which moves of `action` lay exactly these cards (a `resolve` message; `onto`: the
 * rank of a meld of the side's that the wild cards join); its answer (`moves`) comes back to
 * onResolved. The page never decides what is legal.
 */
function askEngine(action, cards, onto = null) {
  const fields = onto ? { action, cards, onto } : { action, cards };
  const purpose = { action, cards: cards.length, state: ui.last && ui.last.state };
  if (!sendResolve(fields, purpose)) setStatus("Not connected; reconnecting\u2026", "error");
}

/** The engine's answer to a resolve: one move is played, several offered, none explained. */
export function onResolved(message) {
  const purpose = answered(message.id) || {};
  if (!ui.last || message.state !== ui.last.state) return;
  if (purpose.why) {
    greyReasons.set(purpose.key, message.reason || "Not now");
    renderActions(ui.last); // the button's title and reason now speak of these cards
    if (purpose.show && purpose.key === selectionKey(purpose.action)) setStatus(whyText(purpose.key), "info");
    return;
  }
  const moves = message.moves || [];
  if (moves.length === 1) sendMove(moves[0]);
  else if (moves.length > 1) {
    ui.choosing = true;
    ui.choiceMoves = moves;
    ui.choiceFor = message.state;
    renderPileChoices(ui.last);
    focusFirstChoice();
    const pile = purpose.cards ? "Choose how to take the pile." : "Choose how to take the pile, or select cards and press Take pile.";
    setStatus(message.action === "pile" ? pile : "Choose where the cards go.", "info");
  } else setStatus(message.reason ? sentence(message.reason) : "These cards make no legal move.", "error");
}

/** A resolve the server refused (stale, rate limited): a lookup for a grey button is forgotten quietly. */
export function onResolveRefused(id) {
  const purpose = answered(id);
  return Boolean(purpose && purpose.why);
}

const CARD_ACTIONS = ["meld", "pile", "discard"];

/** The cache key of the cards selected now for `action`, or null when the selection says nothing about
 * why it is greyed out (no card selected, not this player's turn, or not the phase of that action). */
function selectionKey(action) {
  const msg = ui.last;
  const cards = selectedCodes();
  if (!msg || !cards.length || !CARD_ACTIONS.includes(action) || !myTurn(msg)) return null;
  if ((action === "pile") !== (msg.view.phase === "draw") || msg.view.phase === "answer") return null;
  return `${msg.state}|${action}|${[...cards].sort().join(" ")}`;
}

function whyText(key) {
  const why = greyReasons.get(key);
  return why ? sentence(why) : "";
}

/**
 * Why `action`'s greyed-out button is grey, for the cards selected now: the engine's sentence when it
 * has been asked (`undefined` when the selection does not matter: the state message's `reasons` say
 * why; "" while it is not known yet).
 */
export function greyReason(action) {
  const key = selectionKey(action);
  if (key === null) return undefined;
  return greyReasons.has(key) ? greyReasons.get(key) : "";
}

/** Ask the engine why `action` is greyed out with the cards selected (once per selection); `show`: in the
 * status line too.  False when the selection does not matter (the button's own reason says why). */
function explainGrey(action, show) {
  const key = selectionKey(action);
  if (key === null) return false;
  if (greyReasons.has(key)) {
    if (show) setStatus(whyText(key), "info");
    return true;
  }
  const pending = [...asked.values()].find((a) => a.key === key);
  if (pending) {
    pending.show = pending.show || show;
    return true;
  }
  if (greyReasons.size > 50) greyReasons.clear();
  const purpose = { why: true, key, action, show, state: ui.last.state };
  if (!sendResolve({ action, cards: selectedCodes() }, purpose) && show) setStatus("Not connected; reconnecting\u2026", "error");
  return true;
}

function focusFirstChoice() {
  const first = $("pile-choices").querySelector("button");
  if (first) first.focus();
}

export function onMeldClick(rank) {
  const cards = selectedCodes();
  if (!cards.length) {
    setStatus(`Select cards in your hand, then choose your ${rankPlural(rank)} to add them.`, "info");
    return;
  }
  askEngine("meld", cards, rank); // the engine puts the wild cards on that meld, the rest by rank
}

function doPile() {
  const msg = ui.last;
  if (!msg) return;
  // The top card is implied: name only the cards from the hand; the engine groups them
  // (none selected: every way to take the pile).
  askEngine("pile", selectedCodes());
}

function doDiscard() {
  const cards = selectedCodes();
  if (cards.length !== 1) {
    setStatus("Select one card to discard.", "error");
    return;
  }
  sendMove("discard " + cards[0]);
}

export function doNext() {
  // "ready": this player dismissed the hand's result; the hand is dealt when everybody did.
  request("ready", {}, "next");
}

export function doHint() {
  setStatus("Thinking\u2026", "info");
  request("hint", {}, "hint");
}

export function showHint(message) {
  setStatus(`Hint: ${message.reason}`, "hint"); // the move and why, in the engine's one sentence
  $("status").dataset.move = message.move; // the move in notation, for the chooser and the tests
  if (!ui.last) return;
  ui.hintFor = ui.last.state;
  ui.highlight = keysFor(ui.last.view, cardsInText(message.move));
  markHighlight(ui.highlight);
}

export function closeChooser() {
  ui.choosing = false;
  if (ui.last) renderPileChoices(ui.last);
  markHighlight(ui.hintFor === (ui.last && ui.last.state) ? ui.highlight : new Set());
}

export function clearAll() {
  clearSelection();
  closeChooser();
}

function onTypedMove(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text) return;
  const word = actionOf(text);
  if (word === "next") doNext();
  else if (word === "hint") doHint();
  else sendMove(text);
}

export const ACTION_HANDLERS = {
  draw: doDraw,
  pile: doPile,
  meld: doMeld,
  discard: doDiscard,
  ask: () => sendMove("ask"),
  yes: () => sendMove("yes"),
  no: () => sendMove("no"),
};

/**
 * A button that is greyed out says why (its keyboard shortcut still sends the move: the engine answers):
 * with cards selected, the engine is asked about those cards when the button is pointed at, focused
 * or clicked.
 */
function guarded(button, handler, action = null) {
  const grey = () => button.getAttribute("aria-disabled") === "true";
  button.addEventListener("click", () => {
    if (!grey()) handler();
    else if (!explainGrey(action, true)) setStatus(button.dataset.why || "Not now.", "info");
  });
  if (CARD_ACTIONS.includes(action)) {
    const look = () => grey() && explainGrey(action, false);
    button.addEventListener("mouseenter", look);
    button.addEventListener("focus", look);
  }
}

export function wireActions() {
  for (const [action, handler] of Object.entries(ACTION_HANDLERS)) guarded($("btn-" + action), handler, action);
  $("btn-next").addEventListener("click", doNext);
  guarded($("btn-hint"), doHint);
  $("btn-clear").addEventListener("click", () => {
    clearAll();
    setStatus("");
  });
  $("pile-choices").addEventListener("click", (event) => {
    if (event.target.closest("#btn-cancel-choice")) closeChooser();
  });
  $("move-form").addEventListener("submit", onTypedMove);
  document.addEventListener("selection-changed", () => {
    if (ui.last) renderActions(ui.last);
  });
}
