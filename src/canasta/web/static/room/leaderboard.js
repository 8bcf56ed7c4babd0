// The leaderboard (/room/leaderboard): GET /api/leaderboard/{family}, ranked players with the computer levels
// among them at their fixed ratings, and the provisional players apart. The family is in the URL (?family=two).

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function cell(text, className) {
  return el("td", text, className);
}

function nameCell(player) {
  const td = el("td", undefined, "board-name");
  td.append(el("span", player.name, "board-player"));
  if (player.computer) {
    const note = el("span", "computer level", "board-note");
    note.prepend(el("span", " · ", "sep"));
    td.append(note);
  }
  else if (player.standing) td.append(el("span", player.standing, "board-standing"));
  return td;
}

function rows(board) {
  const body = $("board-rows");
  body.replaceChildren();
  let rank = 0;
  for (const player of board.players) {
    const tr = el("tr");
    if (player.computer) tr.className = "board-level";
    else rank += 1;
    tr.append(cell(player.computer ? "" : String(rank), "num"), nameCell(player),
      cell(player.rating.toFixed(1), "num"), cell(player.computer ? "" : String(player.matches), "num"));
    body.append(tr);
  }
  if (!rank) {
    const tr = el("tr");
    const td = cell("No established player yet: play rated matches to join the ranking.", "room-empty");
    td.colSpan = 4;
    tr.append(td);
    body.prepend(tr);
  }
  const unsure = $("provisional-rows");
  unsure.replaceChildren();
  for (const player of board.provisional) {
    const tr = el("tr");
    tr.append(nameCell(player), cell(`${player.rating.toFixed(1)}?`, "num"), cell(String(player.matches), "num"));
    unsure.append(tr);
  }
  if (!board.provisional.length) {
    const tr = el("tr");
    const td = cell("Nobody is provisional in this family.", "room-empty");
    td.colSpan = 3;
    tr.append(td);
    unsure.append(tr);
  }
}

async function show(family) {
  $("board-status").textContent = "";
  $("board-status").classList.remove("error");
  let response;
  try {
    response = await fetch(`/api/leaderboard/${encodeURIComponent(family)}`, { credentials: "same-origin" });
  } catch {
    $("board-status").textContent = "The server cannot be reached; try again.";
    $("board-status").classList.add("error");
    return;
  }
  const data = await response.json();
  if (!response.ok) {
    $("board-status").textContent = data.message || `The server answered ${response.status}.`;
    $("board-status").classList.add("error");
    return;
  }
  $("board-caption").textContent = `Ratings in ${data.title} games`;
  rows(data);
  document.body.dataset.family = data.family;
}

const picker = $("family");
const wanted = new URLSearchParams(window.location.search).get("family");
if (wanted && [...picker.options].some((o) => o.value === wanted)) picker.value = wanted;
picker.addEventListener("change", () => {
  const url = new URL(window.location.href);
  url.searchParams.set("family", picker.value);
  window.history.replaceState(null, "", url);
  show(picker.value);
});
show(picker.value);
