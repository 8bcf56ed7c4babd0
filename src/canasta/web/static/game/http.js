// One JSON request, as every page's code wants it: never throws, and says what went wrong in a sentence.

/**
 * `fetch(url, init)` and its JSON body: `{ ok, status, body }`, with `status` 0 and a `body.message` for the
 * player when the server cannot be reached, and a `body.message` when the answer is not JSON.
 */
export async function getJSON(url, init = undefined) {
  let answer;
  try {
    answer = await fetch(url, init);
  } catch {
    return { ok: false, status: 0, body: { message: "The server cannot be reached; try again." } };
  }
  let body = {};
  try {
    body = await answer.json();
  } catch {
    body = { message: "The server's answer was not readable." };
  }
  return { ok: answer.ok, status: answer.status, body };
}
