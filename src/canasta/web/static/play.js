// GET /play: a page that asks for its table at once (POST /play answers with a redirect to
// the new seat's link), so that opening the address starts a game in one step while a
// link preview or a prefetch, which runs no script, makes no table.
const form = document.getElementById("quick-play");
const [navigation] = performance.getEntriesByType("navigation");
// Coming back to this page with the Back button shows the button instead of dealing again.
const back = navigation instanceof PerformanceNavigationTiming && navigation.type === "back_forward";
if (form instanceof HTMLFormElement && !back) {
  form.submit();
}
