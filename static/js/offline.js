// The offline page stands where a page could not be loaded. It asks the network now and
// then (at once when the browser says it is back online, which may come before the
// network really is) and, once an answer comes, loads that page again: the player need
// not tap "Try again". A HEAD request: the service worker leaves it to the network.
const ASK_EVERY_MS = 5000;
let asking = false;
const back = async () => {
  if (asking) return;
  asking = true;
  try {
    await fetch(location.href, { method: "HEAD", cache: "no-store" });
    location.reload();
  } catch {
    // Still no network: the next try will tell.
  } finally {
    asking = false;
  }
};
addEventListener("online", back);
setInterval(() => {
  if (document.visibilityState === "visible") back();
}, ASK_EVERY_MS);
