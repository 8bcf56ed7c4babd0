// What the buttons, the melds and the typed move do: build the move from the selection and
// send it; a greyed-out button says why instead.
import { actionOf, buildGroups, cardsInText, rankPlural } from "/static/cards.js";
import { request } from "/static/game/connection.js";
import { clearSelection, markHighlight } from "/static/game/hand.js";
import { renderPileChoices } from "/static/game/render.js";
import { $, keysFor, selectedCodes, ui } from "/static/game/state.js";

export function setStatus(text, kind = "info") {
  const node = $("status");
  node.textContent = text;
  node.dataset.kind = kind;
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

/**
 * Ask the engine which moves of `action` lay exactly these cards (a `resolve` message);
 * its answer (`moves`) comes back to onResolved. The page never decides what is legal.
 */
function askEngine(action, cards) {
  if (!request("resolve", { action, cards }, "resolve")) setStatus("Not connected; reconnecting\u2026", "error");
}

/** The engine's answer to a resolve: one move is played, several offered, none explained. */
export function onResolved(message) {
  const moves = message.moves || [];
  if (!ui.last || message.state !== ui.last.state) return;
  if (moves.length === 1) sendMove(moves[0]);
  else if (moves.length > 1) {
    ui.choosing = true;
    ui.choiceMoves = moves;
    renderPileChoices(ui.last);
    focusFirstChoice();
    setStatus(message.action === "pile" ? "Choose how to take the pile." : "Choose where your wild cards go.", "info");
  } else setStatus(message.reason || "These cards make no legal move.", "error");
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
  const built = buildGroups(cards, { targetRank: rank });
  if (built.error) setStatus(built.error, "error");
  else sendMove("meld " + built.groups.join(", "));
}

function doPile() {
  const msg = ui.last;
  if (!msg) return;
  const cards = selectedCodes();
  if (cards.length) {
    // The top card is implied: name only the cards from the hand; the engine groups them.
    askEngine("pile", cards);
    return;
  }
  const moves = (msg.legal || []).filter((m) => actionOf(m) === "pile");
  if (moves.length === 1) sendMove(moves[0]);
  else if (moves.length === 0) sendMove("pile");
  else {
    ui.choosing = true;
    renderPileChoices(msg);
    focusFirstChoice();
    setStatus("Choose how to take the pile, or select cards and press Take pile.", "info");
  }
}

function doDiscard() {
  const cards = selectedCodes();
  if (cards.length !== 1) {
    setStatus("select one card to discard", "error");
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
  setStatus(`Hint: ${message.move} \u2014 ${message.reason}`, "hint");
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

/** A button that is greyed out says why (its keyboard shortcut still sends the move: the engine answers). */
function guarded(button, handler) {
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-disabled") === "true") setStatus(button.dataset.why || "Not now.", "info");
    else handler();
  });
}

export function wireActions() {
  for (const [action, handler] of Object.entries(ACTION_HANDLERS)) guarded($("btn-" + action), handler);
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
}
