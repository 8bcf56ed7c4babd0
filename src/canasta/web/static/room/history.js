// A player's finished matches (GET /api/history): the signed-in player's, else this browser's, with totals.
// Used by the room (/room) and the account page (/account); nothing here is a card.

const GAMES = {
  four: "four players", two: "two players", three: "three players", "five-six": "five or six players",
};

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function names(people) {
  return people.map((p) => p.name + (p.computer ? " (computer)" : "") + (p.left ? " (left)" : "")).join(", ");
}

// A tournament table's row: the tournament and the table, the side's matchpoint percentage once it is over, and
// links to its standings and its own board replay (the match replays of the history do not play boards).
function tournamentRow(m) {
  const t = m.tournament;
  const li = el("li");
  const line = el("div", undefined, "room-line");
  const percent = t.over && t.percent !== null ? `${t.percent.toFixed(2)}%` : t.over ? "over" : "in play";
  line.append(el("span", percent, "tournament"));
  const title = /^tournament\b/i.test(t.name) ? t.name : `Tournament ${t.name}`;
  line.append(el("strong", `${title}, table ${t.table}`));
  line.append(el("span", new Date(m.finished * 1000).toLocaleString()));
  if (t.rank !== null) line.append(el("span", `rank ${t.rank}`));
  const standings = el("a", t.over ? "Results" : "Standings");
  standings.href = m.link;
  line.append(standings);
  if (t.board_link) {
    const boards = el("a", "Replay the boards");
    boards.href = t.board_link;
    line.append(boards);
  }
  li.append(line);
  const who = el("p", undefined, "small-note");
  who.textContent = (m.partners.length ? `With ${names(m.partners)}; ` : "") +
    `against ${names(m.opponents)} · ${m.preset} · ` +
    (t.over ? `${m.hands} boards` : "the results show once every table has played");
  li.append(who);
  return li;
}

export function renderHistory(box, data) {
  box.replaceChildren();
  const t = data.totals;
  const totals = el("p", undefined, "room-totals");
  totals.append(el("span", `Matches: ${t.matches}`));
  totals.append(el("span", `Win rate: ${t.win_rate === null ? "–" : Math.round(t.win_rate * 100) + "%"}`));
  totals.append(el("span", `Points per hand: ${t.points_per_hand === null ? "–" : t.points_per_hand}`));
  box.append(totals);
  if (!data.matches.length) {
    box.append(el("p", "No finished match yet.", "room-empty"));
    return;
  }
  const list = el("ul", undefined, "room-history");
  for (const m of data.matches) {
    if (m.tournament) {
      list.append(tournamentRow(m));
      continue;
    }
    const li = el("li");
    const line = el("div", undefined, "room-line");
    line.append(el("span", m.result, m.result));
    line.append(el("strong", `${m.preset}${m.rated ? ", rated" : ""}`));
    line.append(el("span", new Date(m.finished * 1000).toLocaleString()));
    if (m.rating_change !== null) {
      const sign = m.rating_change > 0 ? "+" : "";
      line.append(el("span", `rating ${sign}${m.rating_change.toFixed(1)}`));
    }
    const link = el("a", "Scores and replay");
    link.href = m.link;
    line.append(link);
    li.append(line);
    const who = el("p", undefined, "small-note");
    who.textContent = (m.partners.length ? `With ${names(m.partners)}; ` : "") +
      `against ${names(m.opponents)} · ${GAMES[m.family] || m.family} · ${m.hands} hands, ${m.score} points`;
    li.append(who);
    list.append(li);
  }
  box.append(list);
}

export async function loadHistory(box) {
  try {
    const response = await fetch("/api/history", { credentials: "same-origin" });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    renderHistory(box, await response.json());
  } catch (err) {
    box.replaceChildren(el("p", `The history could not be loaded (${err.message || err}).`, "room-empty"));
  }
}

const box = document.getElementById("history");
if (box) {
  loadHistory(box);
  document.addEventListener("canasta:account", () => loadHistory(box));  // signed in or out on /account
}
