// A hand of a finished match (/match/{id}/hand/{n}), replayed at the table by the game page's own review
// (static/game/review.js) from the match's record: GET /api/matches/{id}/hands/{n}/replay gives every hand face
// up (the match is over) and, to a viewer who played a seat (their account or this browser), that seat's review
// when one was made at the table; the viewer then sits at the bottom with their cards in the hand. Anyone holding
// the link may open it; nothing here needs a seat's token.
import { fit } from "/static/game/fit.js";
import { getJSON } from "/static/game/http.js";
import { startReplay } from "/static/game/review.js";
import { $, ui } from "/static/game/state.js";

const parts = window.location.pathname.split("/"); // "", "match", id, "hand", n
const matchId = decodeURIComponent(parts[2] || "");
const first = Number(parts[4]) || 1;
const matchLink = `/match/${encodeURIComponent(matchId)}`;

/** The replay as review.js reads it: at the viewer's own seat, their cards in the hand at every point. */
function asSeen(body) {
  const seat = body.viewer;
  ui.role = seat === null || seat === undefined ? "spectator" : "player";
  ui.seat = ui.role === "player" ? seat : null;
  document.body.classList.toggle("spectator", ui.role === "spectator");
  body.match = matchId;
  if (ui.role !== "player") return body;
  body.seat = seat;
  body.frames = body.frames.map((frame) => ({
    ...frame, view: { ...frame.view, seat, hand: (frame.hands || [])[seat] || [] },
  }));
  return body;
}

async function replay(hand) {
  const answer = await getJSON(`/api/matches/${encodeURIComponent(matchId)}/hands/${hand}/replay`);
  if (answer.status === 0) return answer;
  if (!answer.ok) {
    return { ok: false, status: answer.status, body: { message: "There is no such hand of a finished match at this link." } };
  }
  return { ok: true, status: answer.status, body: asSeen(answer.body) };
}

/** The table the hand was played at: the seats as the history names them, nobody away. */
function base(data) {
  const table = data.table || {};
  const players = (table.players || []).map((p) => ({ ...p, connected: true, computer: false, away: false }));
  return { ...table, id: matchId, status: "playing", players, hand: data.hand, match: 1, turn_left: null };
}

function note(data) {
  if (data.viewer !== null && data.viewer !== undefined) {
    return "The match is over: every hand is face up. No review of your decisions was made in this hand.";
  }
  return "The match is over: every hand is face up.";
}

function setPanel(open) {
  document.body.classList.toggle("panel-open", open);
  $("btn-panel").setAttribute("aria-expanded", String(open));
  if (open) $("sidebar").focus();
}

async function start() {
  $("back-home").href = matchLink;
  $("match-link").href = matchLink;
  try {
    document.body.classList.toggle("four-colour", localStorage.getItem("canasta:four-colour") === "1");
  } catch { /* storage unavailable */ }
  $("btn-panel").addEventListener("click", () => setPanel(!document.body.classList.contains("panel-open")));
  $("btn-panel-close").addEventListener("click", () => {
    setPanel(false);
    $("btn-panel").focus();
  });
  $("hand-copy").addEventListener("click", async () => {
    const link = window.location.origin + window.location.pathname;
    try {
      await navigator.clipboard.writeText(link);
      $("hand-copied").textContent = "Copied.";
    } catch {
      $("hand-copied").textContent = link;
    }
  });
  window.addEventListener("resize", () => {
    if (ui.review) fit();
  });
  // The preset's fields (decks, bonuses) for the points on the table; the replay is drawn without them too.
  const setup = fetch("/api/setup").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  const summary = await fetch(`/api/matches/${encodeURIComponent(matchId)}`).then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const found = await setup;
  if (found) ui.presets = found.presets;
  if (!summary) {
    showNotice("There is no finished match at this link: a match is replayed once it is over.");
    return;
  }
  const hands = summary.hands.length;
  const when = new Date(summary.finished * 1000).toLocaleDateString();
  document.title = `Hand ${first} of ${summary.preset} · Canasta`;
  $("table-facts").textContent = `A finished match of ${summary.preset}${summary.rated ? ", rated" : ""}, to `
    + `${summary.target.toLocaleString()} points, ${when}: ${summary.players.join(", ")}.`;
  const source = {
    label: "replay",
    verb: "Replaying",
    replay,
    base,
    note,
    close: () => window.location.assign(matchLink),
    chosen: (hand) => {
      window.history.replaceState(null, "", `${matchLink}/hand/${hand}`);
      document.title = `Hand ${hand} of ${summary.preset} · Canasta`;
    },
  };
  if (!(await startReplay(source, first, hands))) {
    showNotice("This hand cannot be replayed: there is no such hand of a finished match at this link.");
  }
}

function showNotice(text) {
  const notice = $("notice");
  notice.replaceChildren();
  const line = document.createElement("p");
  line.textContent = text;
  const back = document.createElement("a");
  back.href = "/room";
  back.textContent = "Back to the room";
  notice.append(line, back);
  notice.hidden = false;
  document.body.classList.add("replay-missing");
}

start();
