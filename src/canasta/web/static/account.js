// The account page (/account): sign up, in and out, change the password, delete the account.
// Every request is same-origin JSON; the session lives in an HttpOnly cookie this script never sees.

const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  const status = $("account-status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(text) && isError);
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { ok: response.ok, status: response.status, data };
}

function reason(answer) {
  return (answer.data && answer.data.message) || `the server answered ${answer.status}`;
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

const FAMILIES = {
  four: "Four players (partnerships)", two: "Two players", three: "Three players", "five-six": "Five and six players",
};

function showSignedIn(me) {
  $("me-name").textContent = me.account.name;
  const ratings = $("me-ratings");
  ratings.replaceChildren();
  const families = Object.keys(me.ratings || {});
  if (families.length === 0) ratings.append(item("No rated matches yet."));
  for (const family of families) {
    const r = me.ratings[family];
    const provisional = r.provisional ? " (provisional)" : "";
    ratings.append(item(`${FAMILIES[family] || family}: ${r.rating}${provisional}, ${r.standing}; ${r.matches} matches`));
  }
  const tables = $("me-tables");
  tables.replaceChildren();
  if (!me.tables || me.tables.length === 0) tables.append(item("None yet."));
  for (const t of me.tables || []) {
    tables.append(item(`Table ${t.table}, seat ${t.seat + 1}, since ${new Date(t.at * 1000).toLocaleString()}`));
  }
  $("signed-in").hidden = false;
  $("sign-in").hidden = true;
  $("sign-up").hidden = true;
}

function showSignedOut() {
  $("signed-in").hidden = true;
  $("sign-in").hidden = false;
  $("sign-up").hidden = false;
}

async function refresh() {
  const answer = await call("GET", "/api/me");
  if (answer.ok) showSignedIn(answer.data);
  else showSignedOut();
  document.dispatchEvent(new Event("canasta:account"));  // the history (static/room/history.js) follows
}

function fields(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function onSubmit(form, send, done) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    say("");
    try {
      const answer = await send(fields(form));
      if (!answer.ok) {
        say(reason(answer), true);
        return;
      }
      form.reset();
      say(done);
      await refresh();
    } catch (err) {
      say(`The server could not be reached (${err.message || err}).`, true);
    } finally {
      button.disabled = false;
    }
  });
}

onSubmit($("signin-form"), (f) => call("POST", "/api/account/signin", f), "You are signed in.");
onSubmit($("signup-form"), (f) => call("POST", "/api/account/signup", f), "Your account is made and you are signed in.");
onSubmit($("password-form"), (f) => call("POST", "/api/account/password", f), "Your password is changed.");
onSubmit($("delete-form"), (f) => call("DELETE", "/api/account", f), "Your account is deleted.");
$("sign-out").addEventListener("click", async () => {
  const answer = await call("POST", "/api/account/signout", {});
  say(answer.ok ? "You are signed out." : reason(answer), !answer.ok);
  await refresh();
});
refresh();
