// The service worker: served from the site root (/sw.js), so it may control every page.
// It keeps an offline page for when the network is gone, shows the push notifications
// the server sends, and opens (or focuses) the table a notification is about.
const CACHE = "dalmuti-offline-v1";
const OFFLINE = "/offline/";

// The language of the latest page that came (while this worker runs).
let latestLanguage = null;

async function keepOfflinePage() {
  const cache = await caches.open(CACHE);
  const page = await fetch(OFFLINE, { cache: "reload" });
  if (!page.ok) return;
  const html = await page.clone().text();
  // The offline page's own stylesheet, script and icon, whatever their URLs.
  const assets = [...new Set([...html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)]
    .map((m) => m[1]))];
  await cache.addAll(assets);
  // Fetches of the page overlap when the player changes language: one that was asked for
  // before the change and answers after it never replaces the page in the new language.
  const language = page.headers.get("Content-Language");
  if (latestLanguage && language && language !== latestLanguage) return;
  await cache.put(OFFLINE, page);
}

// The offline page is kept in the language of the pages: a page that comes in another one
// (the player changed it) has the kept page fetched again, in the background.
async function offlinePageIn(language) {
  if (!language) return;
  latestLanguage = language;
  const kept = await caches.match(OFFLINE);
  if (kept && kept.headers.get("Content-Language") === language) return;
  try {
    await keepOfflinePage();
  } catch {
    // The network went again: the next page will try.
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await keepOfflinePage();
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      let response;
      try {
        response = await fetch(request);
      } catch {
        return await caches.match(OFFLINE);
      }
      event.waitUntil(offlinePageIn(response.headers.get("Content-Language")));
      return response;
    })());
    return;
  }
  // Everything else goes to the network; the offline page's assets also come from the
  // cache when the network is gone.
  event.respondWith(fetch(request).catch(async () => {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw new Error("offline");
  }));
});

// The installed app's badge follows the count of tables awaiting the player that each push
// carries, as the pages set it when they load: so it is right while no page is open too.
// Browsers without the Badging API (or that refuse it here) just show the notification.
async function setBadge(count) {
  const badging = self.navigator;
  if (typeof count !== "number" || !badging || !("setAppBadge" in badging)) return;
  try {
    await (count > 0 ? badging.setAppBadge(count) : badging.clearAppBadge());
  } catch (error) {
    // Not installed, or badges switched off: nothing to do.
  }
}

self.addEventListener("push", (event) => {
  const data = event.data ? event.data.json() : {};
  event.waitUntil(Promise.all([
    self.registration.showNotification(data.title || "Dalmuti", {
      body: data.body || "",
      tag: data.tag,
      renotify: Boolean(data.tag),
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/badge-96.png",
      data: { url: data.url || "/" },
    }),
    setBadge(data.awaiting),
  ]));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url.split("#")[0] === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
