// Keyboard play: d draw, p pile, m meld, x discard, a ask, y/n answer, h hint, n ready (for the next hand),
// Esc clear, / type a move, arrows walk the hand (Space selects the focused card).
import { ACTION_HANDLERS, clearAll, doHint, doNext, setStatus } from "/static/game/actions.js";
import { moveCardFocus } from "/static/game/hand.js";
import { $, isPlayer, myTurn, ui } from "/static/game/state.js";

export function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
  if (event.key === "Escape") {
    if (document.querySelector("dialog[open]")) return; // the dialog closes itself
    if (typing) target.blur();
    clearAll();
    setStatus("");
    return;
  }
  if (typing) return;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (moveCardFocus(event.key === "ArrowLeft" ? -1 : 1)) event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  const answering = ui.last && myTurn(ui.last) && ui.last.view.phase === "answer";
  const handOver = ui.last && ui.last.table.status === "hand_over";
  const map = {
    d: ACTION_HANDLERS.draw, p: ACTION_HANDLERS.pile, m: ACTION_HANDLERS.meld, x: ACTION_HANDLERS.discard,
    a: ACTION_HANDLERS.ask, y: ACTION_HANDLERS.yes, n: handOver && !answering ? doNext : ACTION_HANDLERS.no,
    h: doHint, "/": () => $("move-input").focus(),
  };
  const handler = map[key];
  if (!handler || !isPlayer()) return;
  event.preventDefault();
  handler();
}
