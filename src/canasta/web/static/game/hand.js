// Your hand: sorted, grouped by rank, cards overlapping so 20+ fit; selection, hint marks,
// and the cards you just drew or took with the pile marked until your next move.
import { cardLabel, el, handGroupOf, makeCard } from "/static/cards.js";
import { $, handCards, isPlayer, keysFor, selectedCodes, ui } from "/static/game/state.js";

export function renderHand(msg) {
  const { view } = msg;
  const hand = $("hand");
  const focusedKey = document.activeElement && hand.contains(document.activeElement)
    ? document.activeElement.dataset.key : null;
  hand.replaceChildren();
  const cards = handCards(view);
  $("hand-count").textContent = isPlayer() ? `${cards.length} card${cards.length === 1 ? "" : "s"}` : "";
  hand.dataset.count = String(cards.length);
  if (!cards.length && isPlayer()) {
    hand.append(el("p", "muted", view.sitting_out === ui.seat ? "You sit out this hand." : "No cards in hand."));
  }
  const fresh = ui.freshHand === msg.table.hand ? keysFor(view, ui.fresh) : new Set();
  let group = null;
  let groupKey = null;
  for (const card of cards) {
    const g = handGroupOf(card.code);
    if (g !== groupKey) {
      group = el("div", "hand-group");
      group.dataset.group = g;
      hand.append(group);
      groupKey = g;
    }
    const button = makeCard(card.code, { tag: "button" });
    button.dataset.key = card.key;
    const on = ui.selected.has(card.key);
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("selected", on);
    button.classList.toggle("hint", ui.highlight.has(card.key));
    if (fresh.has(card.key)) {
      button.classList.add("fresh");
      button.dataset.fresh = "true";
      button.querySelector(".card-name").append(", new");
    }
    button.addEventListener("click", () => toggleCard(card.key));
    group.append(button);
  }
  if (focusedKey) {
    const again = hand.querySelector(`.card[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
  updateSelectionInfo();
}

export function toggleCard(key) {
  if (ui.selected.has(key)) ui.selected.delete(key);
  else ui.selected.add(key);
  const button = $("hand").querySelector(`.card[data-key="${CSS.escape(key)}"]`);
  if (button) {
    const on = ui.selected.has(key);
    button.setAttribute("aria-pressed", String(on));
    button.classList.toggle("selected", on);
  }
  updateSelectionInfo();
}

export function clearSelection() {
  ui.selected.clear();
  for (const button of $("hand").querySelectorAll(".card")) {
    button.setAttribute("aria-pressed", "false");
    button.classList.remove("selected");
  }
  updateSelectionInfo();
}

export function markHighlight(keys) {
  for (const button of $("hand").querySelectorAll(".card")) button.classList.toggle("hint", keys.has(button.dataset.key));
}

export function updateSelectionInfo() {
  const codes = selectedCodes();
  $("selection-info").textContent = codes.length ? `Selected: ${codes.map(cardLabel).join(" ")}` : "";
  document.dispatchEvent(new Event("selection-changed")); // a greyed-out button's reason speaks of the selection
}

/** Arrow keys walk the hand. */
export function moveCardFocus(step) {
  const cards = [...$("hand").querySelectorAll(".card")];
  const index = cards.indexOf(document.activeElement);
  if (index < 0) return false;
  cards[Math.max(0, Math.min(cards.length - 1, index + step))].focus();
  return true;
}
