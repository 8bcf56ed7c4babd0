// The review of a finished hand, at the table the player knows: the server's replay (one view per point of
// the hand, as this seat saw it; every hand face up once it is over) drawn by render.js, stepped with ←/→, a
// timeline with the decisions marked by label, the move list, and at a marked decision the better move
// highlighted with its EPL and the reason in words.  The analysis runs on the server (POST, then polled).
//
// Where the replay comes from is a source: the game page's is the table's own (its seat's token, the live
// table's names, the analysis); a finished match's page (static/room/replay.js) gives its own, with every hand
// face up and the review stored for the viewer's seat, if any (startReplay).
import { actionOf, cardLabel, cardsInText, el, formatPoints, isRedSuit } from "/static/cards.js";
import { tableOf, tokenOf } from "/static/game/connection.js";
import { fit } from "/static/game/fit.js";
import { getJSON } from "/static/game/http.js";
import { renderHand } from "/static/game/hand.js";
import { describe, partsText, renderLog } from "/static/game/log.js";
import { renderCenter, renderHeader, renderPlayers, renderScores, renderSides } from "/static/game/render.js";
import { $, isPlayer, keysFor, playerName, ui } from "/static/game/state.js";

const MARKED = ["inaccuracy", "mistake", "blunder"];
const POLL_MS = 700;
let backToTable = () => {};

/**
 * Where a replay comes from and what it may do.  `replay(hand)` and `analyse(hand)` answer `{ok, status, body}`;
 * `analyse` is null where no analysis may be asked for; `base(data)` is the table the replay is drawn at (its
 * players, sides, target, rules); `close()` leaves the replay; `chosen(hand)` says another hand was picked;
 * `note(data)` the line shown where no analysis runs.
 */
const tableSource = {
  label: "review",
  verb: "Reviewing",
  replay: (hand) => api(`/hands/${hand}/replay`),
  analyse: (hand) => api(`/hands/${hand}/review`, "POST"),
  base: () => (ui.last ? ui.last.table : {}),
  close: () => backToTable(),
  chosen: () => {},
  note: () => "A spectator replays the hand, every hand face up; the analysis is each player's own.",
};

/** The review in progress: the replay, where it stands, the decisions by move, the analysis' state. */
const review = {
  data: null, index: 0, hand: 1, hands: 1, matchMode: false, decisions: new Map(), status: "", summary: null, timer: 0,
  source: tableSource,
};
/** The analyses fetched, by "match:hand" (a stored review never changes). */
const analysed = new Map();
let loop = 0; // the analysis loop's generation: a newer one stops the older

function api(path, method = "GET") {
  return getJSON(`/api/tables/${encodeURIComponent(tableOf())}${path}`, {
    method, headers: { "X-Canasta-Token": tokenOf() },
  });
}

/**
 * Open the review of hand `hand` (from 1); `hands`: the finished hands the hand picker offers; `matchMode`:
 * every one of them is analysed in turn (the whole match), else only the hand shown; `source`: where the replay
 * comes from (the table's seat by default).  True when the hand is shown.
 */
export async function openReview(hand, hands = 1, matchMode = false, source = tableSource) {
  const got = await source.replay(hand);
  if (!got.ok) {
    setStatusLine(got.body.message || "The hand cannot be replayed now.");
    return false;
  }
  clearTimeout(review.timer);
  loop += 1;
  Object.assign(review, {
    data: got.body, index: 0, hand, hands: Math.max(hands, hand), matchMode, decisions: new Map(), status: "",
    summary: null, source,
  });
  ui.review = review;
  ui.selected.clear();
  ui.choosing = false;
  const dialog = $("result-dialog");
  if (dialog && dialog.open) dialog.close();
  document.body.classList.add("reviewing");
  $("review-bar").hidden = false;
  $("review-panel").hidden = false;
  renderHandPicker();
  const known = got.body.review || analysed.get(keyOf(hand));
  if (known) applyReview(known);
  renderMoveList();
  show(0);
  if (isPlayer() && source.analyse) startAnalysis();
  else setProgress(known ? summaryText() : source.note(got.body));
  $("btn-review-next").focus();
  return true;
}

const keyOf = (hand) => `${review.data ? review.data.match : 0}:${hand}`;

function closeReview() {
  clearTimeout(review.timer);
  loop += 1;
  ui.review = null;
  ui.highlight.clear();
  document.body.classList.remove("reviewing");
  $("review-bar").hidden = true;
  $("review-panel").hidden = true;
  for (const node of document.querySelectorAll(".review-best")) node.classList.remove("review-best");
  review.source.close();
}

// -- the analysis -------------------------------------------------------------------------

function applyReview(data) {
  review.decisions = new Map(data.decisions.map((d) => [d.index, d]));
  review.summary = data.seats[0] || null;
  review.status = "done";
}

function startAnalysis() {
  clearTimeout(review.timer);
  loop += 1;
  step(loop);
}

/** The next hand to analyse: the one shown, then (the whole match) the first not analysed yet. */
function nextHand() {
  if (!analysed.has(keyOf(review.hand))) return review.hand;
  if (!review.matchMode) return null;
  for (let hand = 1; hand <= review.hands; hand += 1) if (!analysed.has(keyOf(hand))) return hand;
  return null;
}

/** One turn of the analysis loop: ask for the next hand's review (started once, then polled) until all are in. */
async function step(mine) {
  const target = nextHand();
  if (target === null) {
    review.status = "done";
    setProgress(summaryText());
    return;
  }
  const got = await review.source.analyse(target);
  if (mine !== loop || ui.review !== review) return;
  const body = got.body;
  const shown = target === review.hand;
  if (got.ok && body.status === "done") {
    analysed.set(keyOf(target), body.review);
    if (shown) {
      applyReview(body.review);
      renderTimeline();
      renderMoveList();
      show(review.index);
    }
    step(mine);
    return;
  }
  const what = shown ? "your decisions" : `hand ${target}`;
  if (got.ok && body.status === "running") {
    review.status = shown ? "running" : review.status;
    const total = body.total;
    setProgress(total ? `Analysing ${what}… ${body.done} of ${total}` : `Analysing ${what}…`, "",
      total ? body.done / total : null);
  } else if (got.status === 429 && body.error === "review_busy") {
    setProgress(`Waiting for the analysis under way before ${what}…`, "", null);
  } else {
    review.status = shown ? "failed" : review.status;
    setProgress(sentenceOf(body.message || "The analysis is not available now."), "error");
    return;
  }
  review.timer = setTimeout(() => step(mine), POLL_MS);
}

const sentenceOf = (text) => text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");

function summaryText() {
  const s = review.summary;
  if (!s) return "Analysis done.";
  const plural = (n, label) => (n === 1 ? label : label === "inaccuracy" ? "inaccuracies" : `${label}s`);
  const marks = MARKED.filter((label) => s[label]).map((label) => `${s[label]} ${plural(s[label], label)}`);
  return `${s.decisions} decisions judged: ${formatPoints(Math.round(s.total_loss))} points lost in all`
    + `${marks.length ? ` (${marks.join(", ")})` : ""}.`;
}

function setProgress(text, kind = "", fraction = undefined) {
  const box = $("review-progress");
  box.replaceChildren();
  box.dataset.kind = kind;
  box.dataset.state = review.status || "";
  if (fraction !== undefined) {
    const bar = el("progress");
    bar.max = 1;
    if (fraction !== null) bar.value = fraction;
    bar.setAttribute("aria-label", "Analysis progress");
    box.append(bar);
  }
  box.append(el("span", "", text));
}

function setStatusLine(text) {
  const status = $("status");
  status.textContent = text;
  status.dataset.kind = "error";
}

// -- drawing a point of the hand ------------------------------------------------------------

/** The state message of point `index` of the replay, for render.js. */
function frameMessage(index) {
  const d = review.data;
  const over = index === d.frames.length - 1;
  const result = d.results[d.hand - 1];
  const base = review.source.base(d);
  const scores = over && result ? d.scores.map((s, side) => s + result.totals[side]) : d.scores;
  // Who played each seat then is not replayed: the seats show as people at the table, nobody away.
  const players = (base.players || []).map((p) => ({ ...p, computer: false, away: false, connected: true }));
  return {
    type: "state", state: -1 - index, legal: [], legal_more: false, actions: [], reasons: {}, elsewhere: 0,
    drawn: d.drawn,
    table: {
      ...base, players, status: over ? "hand_over" : "playing", hand: d.hand, scores, minimums: d.minimums,
      results: d.results.slice(0, over ? d.hand : d.hand - 1), log: d.log.slice(0, index), dealt: d.dealt,
      ready: [], waiting: [], turn_left: null, winner: null,
    },
    view: d.frames[index].view,
  };
}

function show(index) {
  const d = review.data;
  review.index = Math.max(0, Math.min(d.frames.length - 1, index));
  const msg = frameMessage(review.index);
  const decision = review.decisions.get(review.index);
  const better = decision && decision.best !== decision.played ? decision.best : null;
  ui.highlight = better ? keysFor(msg.view, cardsInText(better)) : new Set();
  ui.hintFor = msg.state;
  document.body.dataset.phase = msg.view.phase;
  document.body.dataset.status = msg.table.status;
  document.body.dataset.reviewIndex = String(review.index);
  renderHeader(msg);
  renderScores(msg);
  renderPlayers(msg);
  for (const facts of document.querySelectorAll("#players .player-facts")) { // nobody is online in a replay
    facts.textContent = facts.textContent.split(" \u00b7 ").filter((word) => word !== "online").join(" \u00b7 ");
  }
  renderSides(msg);
  renderCenter(msg);
  const live = [ui.fresh, ui.freshHand]; // the live table's marks stay its own
  [ui.fresh, ui.freshHand] = [freshAt(review.index), d.hand];
  renderHand(msg);
  [ui.fresh, ui.freshHand] = live;
  renderLog(msg);
  showHands(d.frames[review.index].hands, msg);
  $("table-status").textContent = `Hand ${d.hand} \u00b7 ${review.source.label}`;
  // The heading says whose move is under review, never the live table's "Your turn".
  const turn = $("turn");
  turn.classList.remove("mine");
  if (review.index < d.log.length) {
    const seat = d.log[review.index].seat;
    const whose = isPlayer() && seat === ui.seat ? "your" : `${playerName(msg.table, seat)}\u2019s`;
    turn.textContent = `${review.source.verb} ${whose} move ${review.index + 1} of ${d.log.length}`;
  } else turn.textContent = `${review.source.verb}: the hand is over`;
  markBetter(better);
  renderWhere(msg, decision);
  renderTimeline();
  markMoveList();
  fit();
}

/** The cards the seat's last draw or pile taken before point `index` put in its hand (marked new, as at the table). */
function freshAt(index) {
  const d = review.data;
  for (let i = index - 1; i >= 0; i -= 1) {
    if (d.log[i].seat === d.seat) return d.drawn[String(i)] || [];
  }
  return [];
}

/** Every hand face up where the replay shows them (the hand over; a spectator's replay throughout). */
function showHands(hands, msg) {
  if (!hands) return;
  for (const item of document.querySelectorAll("#players .player")) {
    const seat = Number(item.dataset.seat);
    if (isPlayer() && seat === ui.seat) continue; // your own hand is in its place below
    for (const known of item.querySelectorAll(".known")) known.remove(); // the whole hand says it
    const cards = hands[seat] || [];
    const row = el("span", "review-hand");
    row.setAttribute("aria-label", `${playerName(msg.table, seat)} holds ${cards.length ? cards.map(cardLabel).join(" ") : "no cards"}`);
    if (!cards.length) row.append(el("span", "muted", "no cards"));
    for (const code of cards) row.append(el("span", isRedSuit(code) ? "red" : "", cardLabel(code)), " ");
    item.append(row);
  }
}

/** The better move on the table: its cards in the hand (ui.highlight), the stock or the pile it draws from. */
function markBetter(move) {
  for (const node of document.querySelectorAll(".review-best")) node.classList.remove("review-best");
  if (!move) return;
  const word = actionOf(move);
  if (word === "draw") $("stock").classList.add("review-best");
  if (word === "pile") $("pile-top").classList.add("review-best");
}

function renderWhere(msg, decision) {
  const d = review.data;
  const total = d.log.length;
  $("review-where").textContent = review.index === total ? `Hand over (${total} moves)` : `Move ${review.index + 1} of ${total}`;
  $("btn-review-prev").disabled = review.index === 0;
  $("btn-review-next").disabled = review.index === total;
  const box = $("review-decision");
  box.replaceChildren();
  box.dataset.label = decision ? decision.label : "";
  if (review.index === total) {
    box.append(el("span", "", "The hand is over: every hand is face up, as at the table."));
    return;
  }
  const entry = d.log[review.index];
  const whoText = isPlayer() && entry.seat === ui.seat ? "You" : playerName(msg.table, entry.seat);
  if (!decision) {
    const words = partsText(describe(frameMessage(review.index + 1), entry, review.index));
    const why = isPlayer() && entry.seat === ui.seat && review.status === "done" ? " (the only move)" : "";
    box.append(el("span", "", `Next: ${words}${why}.`));
    return;
  }
  box.append(el("span", `review-label label-${decision.label}`, decision.label));
  box.append(el("span", "", ` ${whoText} played: ${decision.played_words}.`));
  if (decision.best !== decision.played) {
    const better = el("span", "review-better");
    better.append(el("strong", "", ` Better: ${decision.best_words}`), el("span", "review-epl", ` \u2014 EPL ${formatPoints(Math.round(decision.loss))} points.`));
    box.append(better);
    if (decision.reason) box.append(el("span", "review-reason", ` ${decision.reason}`));
  } else box.append(el("span", "", " The best move found."));
}

// -- the timeline, the move list, the hand picker --------------------------------------------

function renderTimeline() {
  const d = review.data;
  const line = $("review-timeline");
  line.replaceChildren();
  for (let index = 0; index <= d.log.length; index += 1) {
    const decision = review.decisions.get(index);
    const mark = el("button", "tick");
    mark.type = "button";
    mark.tabIndex = -1;
    mark.dataset.index = String(index);
    if (decision) {
      mark.dataset.label = decision.label;
      mark.title = `Move ${index + 1}: ${decision.label}${decision.loss ? `, EPL ${Math.round(decision.loss)}` : ""}`;
    } else mark.title = index === d.log.length ? "Hand over" : `Move ${index + 1}`;
    mark.setAttribute("aria-label", mark.title);
    if (index === review.index) mark.classList.add("current");
    mark.addEventListener("click", () => show(index));
    line.append(mark);
  }
}

function renderMoveList() {
  const d = review.data;
  const list = $("review-moves");
  list.replaceChildren();
  const msg = frameMessage(d.frames.length - 1);
  d.log.forEach((entry, index) => {
    const li = el("li");
    const button = el("button", "review-move");
    button.type = "button";
    button.dataset.index = String(index);
    const decision = review.decisions.get(index);
    if (decision) button.dataset.label = decision.label;
    button.append(el("span", "review-move-n", `${index + 1}.`), el("span", "", ` ${partsText(describe(msg, entry, index))}`));
    if (decision && MARKED.includes(decision.label)) button.append(el("span", `review-label label-${decision.label}`, decision.label));
    button.addEventListener("click", () => show(index));
    li.append(button);
    list.append(li);
  });
}

function markMoveList() {
  for (const button of document.querySelectorAll("#review-moves .review-move")) {
    const on = Number(button.dataset.index) === review.index;
    button.classList.toggle("current", on);
    if (on) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  const current = document.querySelector("#review-moves .review-move.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  else $("review-moves").scrollTop = $("review-moves").scrollHeight; // the hand over: after the last move
}

function renderHandPicker() {
  const picker = $("review-hand");
  picker.replaceChildren();
  picker.hidden = review.hands < 2;
  for (let hand = 1; hand <= review.hands; hand += 1) {
    const option = el("option", "", `Hand ${hand}`);
    option.value = String(hand);
    picker.append(option);
  }
  picker.value = String(review.hand);
}

/** The next or previous decision marked inaccuracy, mistake or blunder. */
function nextMarked(step) {
  const d = review.data;
  for (let i = review.index + step; i >= 0 && i <= d.log.length; i += step) {
    const decision = review.decisions.get(i);
    if (decision && MARKED.includes(decision.label)) return i;
  }
  return null;
}

function onKey(event) {
  if (!ui.review || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  const moves = {
    ArrowLeft: () => show(review.index - 1), ArrowRight: () => show(review.index + 1), Home: () => show(0),
    End: () => show(review.data.log.length), Escape: closeReview,
    ArrowUp: () => { const i = nextMarked(-1); if (i !== null) show(i); },
    ArrowDown: () => { const i = nextMarked(1); if (i !== null) show(i); },
  };
  const handler = moves[event.key];
  if (handler) {
    event.preventDefault();
    handler();
  }
  if (handler || event.key.length === 1) event.stopImmediatePropagation(); // no move is played from a review
}

// -- the page's buttons ------------------------------------------------------------------------

/** The review buttons of the result dialog and the record's download, for the state on display. */
export function renderReviewButtons(msg) {
  const { table } = msg;
  const over = table.status !== "playing";
  // At the match's end, one button: the whole match (its hand picker has the last hand too).
  const wholeMatch = table.status === "over" && isPlayer() && table.hand > 1;
  $("btn-review").hidden = !over || wholeMatch;
  $("btn-review").textContent = isPlayer() ? "Review this hand" : "Replay this hand";
  $("btn-review-match").hidden = !wholeMatch;
  const finished = (table.results || []).length;
  $("btn-record").hidden = !finished;
  $("btn-review-last").hidden = !finished;
  $("btn-review-last").textContent = isPlayer() ? "Review a finished hand" : "Replay a finished hand";
}

async function downloadRecord() {
  const got = await fetch(`/api/tables/${encodeURIComponent(tableOf())}/record`, { headers: { "X-Canasta-Token": tokenOf() } });
  if (!got.ok) {
    let message = "The record cannot be downloaded now.";
    try {
      message = (await got.json()).message || message;
    } catch { /* not JSON */ }
    setStatusLine(message);
    return;
  }
  const name = (got.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
  const link = el("a");
  link.href = URL.createObjectURL(await got.blob());
  link.download = name ? name[1] : "canasta-record.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** The review bar's own buttons and keys (steps, the hand picker, back), whatever the source. */
function wireBar() {
  document.addEventListener("keydown", onKey, true);
  $("btn-review-prev").addEventListener("click", () => show(review.index - 1));
  $("btn-review-next").addEventListener("click", () => show(review.index + 1));
  $("btn-review-close").addEventListener("click", closeReview);
  $("review-hand").addEventListener("change", async (event) => {
    const hand = Number(event.target.value);
    if (await openReview(hand, review.hands, review.matchMode, review.source)) review.source.chosen(hand);
  });
}

/**
 * A replay away from the table (a finished match's page): `source` as tableSource's fields; opens hand `hand`
 * of `hands`.  No analysis is asked for unless the source has one.
 */
export function startReplay(source, hand, hands) {
  wireBar();
  return openReview(hand, hands, false, { ...tableSource, analyse: null, ...source });
}

/** Wire the review's buttons and keys; `render` draws the live table again when the review closes. */
export function startReview(render) {
  backToTable = render;
  wireBar();
  const finished = () => (ui.last ? (ui.last.table.results || []).length : 0);
  $("btn-review").addEventListener("click", () => {
    if (ui.last) openReview(ui.last.table.hand, finished());
  });
  $("btn-review-match").addEventListener("click", () => {
    if (ui.last) openReview(finished(), finished(), true);
  });
  $("btn-review-last").addEventListener("click", () => {
    if (finished()) openReview(finished(), finished());
  });
  $("btn-record").addEventListener("click", downloadRecord);
}
