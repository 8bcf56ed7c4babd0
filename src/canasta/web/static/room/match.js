// A finished match by its shared link (/match/{id}): the final scores, each hand's totals, and for every hand
// its replay at the table (/match/{id}/hand/{n}, static/room/replay.js) and a plain step-through as text. A
// finished match's hands are all over, so both show every hand face up, as a spectator's replay of a finished
// hand does; the stock's order is never sent.
import { SUIT_SYMBOL } from "/static/cards.js";

const $ = (id) => document.getElementById(id);
const matchId = window.location.pathname.split("/").pop();
let replay = null;
let point = 0;

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function card(code) {
  const span = el("span", undefined, "card-text");
  if (code === "JK") { span.textContent = "Joker"; return span; }
  const rank = code[0] === "T" ? "10" : code.slice(0, -1);
  const suit = code.slice(-1);
  span.textContent = rank + (SUIT_SYMBOL[suit] || suit);
  if (suit === "H" || suit === "D") span.classList.add("red");
  span.setAttribute("aria-label", `${rank} of ${{ S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[suit] || suit}`);
  return span;
}

function showPoint() {
  const frame = replay.frames[point];
  $("step-where").textContent = point < replay.log.length
    ? `Hand ${replay.hand}, before move ${point + 1} of ${replay.log.length}` : `Hand ${replay.hand}, over`;
  const hands = $("step-hands");
  hands.replaceChildren();
  (frame.hands || []).forEach((cards, seat) => {
    const li = el("li");
    li.append(el("strong", `${replay.players[seat]}: `));
    cards.forEach((c, i) => { if (i) li.append(" "); li.append(card(c)); });
    if (!cards.length) li.append("no cards");
    hands.append(li);
  });
  const table = $("step-table");
  table.replaceChildren();
  (frame.view.melds || []).forEach((melds, side) => {
    const li = el("li");
    li.append(el("strong", `Side ${side + 1}'s melds: `));
    const ranks = Object.keys(melds);
    if (!ranks.length) li.append("none");
    ranks.forEach((rank, i) => {
      if (i) li.append(" · ");
      melds[rank].forEach((c, j) => { if (j) li.append(" "); li.append(card(c)); });
    });
    table.append(li);
  });
  const pile = frame.view.pile || [];
  const top = el("li");
  top.append(el("strong", "Pile: "));
  if (pile.length) top.append(card(pile[pile.length - 1]), ` on top, ${pile.length} cards`);
  else top.append("empty");
  table.append(top);
  const log = $("step-log");
  log.replaceChildren();
  replay.log.forEach((entry, index) => {
    const li = el("li", `${replay.players[entry.seat]}: ${entry.words || entry.move}`);
    if (index === point) li.className = "now";
    log.append(li);
  });
  const now = log.children[point];
  if (now) now.scrollIntoView({ block: "nearest" });
  $("step-back").disabled = point === 0;
  $("step-next").disabled = point >= replay.frames.length - 1;
}

async function openHand(number) {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}/hands/${number}`);
  if (!response.ok) { $("match-status").textContent = "This hand cannot be replayed."; return; }
  replay = await response.json();
  point = 0;
  $("replay").hidden = false;
  $("replay-title").textContent = `Hand ${number} as text`;
  showPoint();
  $("replay-title").focus();
}

$("match-copy").addEventListener("click", async () => {
  const link = window.location.origin + window.location.pathname;
  try {
    await navigator.clipboard.writeText(link);
    $("match-status").textContent = "The link is copied: send it to share the match.";
  } catch {
    $("match-status").textContent = `The match's link: ${link}`;
  }
});
$("step-back").addEventListener("click", () => { if (point > 0) { point -= 1; showPoint(); } });
$("step-next").addEventListener("click", () => {
  if (replay && point < replay.frames.length - 1) { point += 1; showPoint(); }
});

async function load() {
  const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}`);
  if (!response.ok) {
    $("match-status").textContent = "There is no finished match at this link.";
    return;
  }
  const m = await response.json();
  $("match-title").textContent = `${m.preset}${m.rated ? ", rated" : ""} · to ${m.target.toLocaleString()} · `
    + new Date(m.finished * 1000).toLocaleString();
  const body = $("match-sides");
  for (const side of m.sides) {
    const row = el("tr");
    row.append(el("td", String(side.side + 1)));
    row.append(el("td", side.players.map((p) => p.name + (p.left ? " (left)" : "")
      + (p.rating_change === null ? "" : ` (${p.rating_change > 0 ? "+" : ""}${p.rating_change.toFixed(1)})`)).join(", ")));
    row.append(el("td", side.score.toLocaleString(), "num"));
    row.append(el("td", side.result, side.result));
    body.append(row);
  }
  const hands = $("match-hands");
  for (const hand of m.hands) {
    const li = el("li", undefined, "room-line match-hand");
    li.append(el("strong", `Hand ${hand.hand}`));
    li.append(el("span", `${hand.totals.join(" / ")} → ${hand.scores.join(" / ")}`, "match-hand-scores"));
    // The table replay (the game page's own review, every hand face up), and the same hand as text.
    const link = el("a", `Replay hand ${hand.hand}`, "button match-hand-replay");
    link.href = `/match/${encodeURIComponent(matchId)}/hand/${hand.hand}`;
    const button = el("button", "As text", "match-hand-text");
    button.type = "button";
    button.setAttribute("aria-label", `Hand ${hand.hand} as text`);
    button.addEventListener("click", () => openHand(hand.hand));
    li.append(link, button);
    hands.append(li);
  }
}

load();
