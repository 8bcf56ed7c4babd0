// A board of a finished duplicate tournament as one table played it (/tournament/{id}/table/{t}/board/{b}),
// replayed at the table by the game page's own review (static/game/review.js), on the room's page of a finished
// hand (static/room/replay.html, which the server gives with this script): GET
// /api/tournaments/{id}/tables/{t}/boards/{b}/replay answers once the tournament is over, every hand face up.
// The hand picker goes through the boards this table played; the way back leads to the standings.
import { fit } from "/static/game/fit.js";
import { getJSON } from "/static/game/http.js";
import { startReplay } from "/static/game/review.js";
import { $, ui } from "/static/game/state.js";

const parts = window.location.pathname.split("/"); // "", "tournament", id, "table", t, "board", b
const tournamentId = decodeURIComponent(parts[2] || "");
const tableNumber = Number(parts[4]) || 1;
const first = Number(parts[6]) || 1;
const standings = `/tournament/${encodeURIComponent(tournamentId)}`;
const boardPath = (board) => `${standings}/table/${tableNumber}/board/${board}`;

async function fetchBoard(board) {
  const answer = await getJSON(`/api/tournaments/${encodeURIComponent(tournamentId)}/tables/${tableNumber}/boards/${board}/replay`);
  const body = answer.body;
  if (!answer.ok) return { ok: false, status: answer.status, body };
  ui.role = "spectator";
  ui.seat = null;
  document.body.classList.add("spectator");
  body.match = `${tournamentId}:${tableNumber}`;
  return { ok: true, status: answer.status, body };
}

/** The table the board was played at: its seats' names, nobody away. */
function base(data) {
  const table = data.table || {};
  const players = (table.players || []).map((p) => ({ ...p, connected: true, computer: false, away: false }));
  return { ...table, id: tournamentId, status: "playing", players, hand: data.hand, match: 1, turn_left: null };
}

function showNotice(text) {
  const notice = $("notice");
  const line = document.createElement("p");
  line.textContent = text;
  const back = document.createElement("a");
  back.href = standings;
  back.textContent = "Back to the tournament";
  notice.replaceChildren(line, back);
  notice.hidden = false;
  document.body.classList.add("replay-missing");
}

function setPanel(open) {
  document.body.classList.toggle("panel-open", open);
  $("btn-panel").setAttribute("aria-expanded", String(open));
  if (open) $("sidebar").focus();
}

/** The review speaks of a match's hands (hand 1 of a match to 5,000): here each hand is a board, so its words are
 * kept saying boards as the review draws them. */
function sayBoards() {
  const fix = () => {
    for (const id of ["table-status", "match-facts", "table-facts"]) {
      const node = $(id);
      if (node && /Hand \d/.test(node.textContent)) {
        node.textContent = node.textContent.replace(/Hand (\d+)/, "Board $1").replace(/ of a match to [\d,.\s]+points/, "")
          .replace(/ to [\d,.\s]+$/, "");
      }
    }
    for (const node of document.querySelectorAll(".score-target")) {
      if (node.textContent !== "board totals") node.textContent = "board totals";
    }
    for (const option of document.querySelectorAll("#review-hand option")) {
      if (option.textContent.startsWith("Hand")) option.textContent = option.textContent.replace("Hand", "Board");
    }
  };
  new MutationObserver(fix).observe(document.body, { childList: true, subtree: true, characterData: true });
  fix();
}

async function start() {
  $("back-home").href = standings;
  $("back-home").title = "Back to the tournament";
  $("match-link").href = standings;
  $("match-link").textContent = "The tournament's standings";
  $("seat-title").textContent = "This board";
  const close = $("btn-review-close");
  if (close) close.firstChild.textContent = "Standings ";
  sayBoards();
  try {
    document.body.classList.toggle("four-colour", localStorage.getItem("canasta:four-colour") === "1");
  } catch { /* storage unavailable */ }
  $("btn-panel").addEventListener("click", () => setPanel(!document.body.classList.contains("panel-open")));
  $("btn-panel-close").addEventListener("click", () => {
    setPanel(false);
    $("btn-panel").focus();
  });
  window.addEventListener("resize", () => {
    if (ui.review) fit();
  });
  const setup = await fetch("/api/setup").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (setup) ui.presets = setup.presets;
  const firstAnswer = await fetchBoard(first);
  if (!firstAnswer.ok) {
    showNotice(firstAnswer.body.message || "This board cannot be replayed.");
    return;
  }
  const data = firstAnswer.body;
  const title = (board) => `${data.name}: board ${board}, table ${tableNumber} · Canasta`;
  document.title = title(first);
  $("rules-link").href = `/rules/${encodeURIComponent(data.preset)}`;
  $("table-facts").textContent = `${data.name}, table ${tableNumber}, ${data.preset}: ${data.players.join(", ")}. `
    + "The tournament is over: every hand is face up.";
  let cached = firstAnswer;
  const source = {
    label: "replay",
    verb: "Replaying",
    replay: async (board) => {
      if (cached && board === first) { const got = cached; cached = null; return got; }
      return fetchBoard(board);
    },
    base,
    note: () => "The tournament is over: every hand is face up.",
    close: () => window.location.assign(standings),
    chosen: (board) => {
      window.history.replaceState(null, "", boardPath(board));
      document.title = title(board);
    },
  };
  if (!(await startReplay(source, first, data.boards))) showNotice("This board cannot be replayed.");
}

start();
