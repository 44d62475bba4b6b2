// The installable app and push notifications: the service worker, the "Install" hint
// where the browser offers one, and switching notifications on for this device. Nothing
// asks for permission until the player presses the button.
{
  // Whether this browser could register the service worker: a private window of some
  // browsers has the Push API but no service workers, and would wait for ever.
  const workerRegistered = "serviceWorker" in navigator
    ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => true, () => false)
    : Promise.resolve(false);

  let installPrompt = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    installPrompt = event;
    document.querySelectorAll("[data-install]").forEach((button) => { button.hidden = false; });
  });
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-install]");
    if (!button || !installPrompt) return;
    installPrompt.prompt();
    await installPrompt.userChoice;
    installPrompt = null;
    button.hidden = true;
  });

  const csrf = () => {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  };
  const keyBytes = (base64) => {
    const padded = (base64 + "=".repeat((4 - (base64.length % 4)) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  // Why switching on failed, each told differently: retrying helps only after a failure.
  class Unavailable extends Error {}
  class Unreachable extends Error {}
  // Errors by which a browser says it will not do push here (a private window, a
  // policy), as opposed to a push service it could not reach (AbortError).
  const REFUSALS = ["NotSupportedError", "NotAllowedError", "SecurityError", "InvalidStateError"];
  const within = (promise, ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Unreachable("no answer")), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
  const say = (box, key) => {
    box.querySelector("[data-push-state]").textContent = box.dataset[key];
  };

  const show = async () => {
    const available = supported && await workerRegistered;
    for (const box of document.querySelectorAll("[data-push]")) {
      const button = box.querySelector("[data-push-on]");
      if (!available) {
        button.hidden = true;
        say(box, "unsupported");
        box.dataset.shown = "1";
        continue;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      const on = Boolean(subscription) && Notification.permission === "granted";
      button.hidden = on;
      const state = box.querySelector("[data-push-state]");
      state.textContent = on ? box.dataset.on : (Notification.permission === "denied"
        ? box.dataset.denied : "");
      // The box's state is drawn once the service worker is ready, after the page's
      // "load": a browser test waits for this mark before it measures or taps.
      box.dataset.shown = "1";
    }
  };

  const subscribe = async (box) => {
    if (!(await workerRegistered)) throw new Unavailable("no service worker");
    const registration = await navigator.serviceWorker.ready;
    let subscription;
    try {
      subscription = await registration.pushManager.getSubscription()
        || await registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key),
        });
    } catch (error) {
      throw REFUSALS.includes(error.name) ? new Unavailable(error.message)
        : new Unreachable(error.message);
    }
    const answer = await fetch(box.dataset.url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(subscription.toJSON()),
    });
    if (!answer.ok) throw new Error(String(answer.status));
  };

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-push-on]");
    if (!button) return;
    const box = button.closest("[data-push]");
    if (!supported) {
      say(box, "unsupported");
      return;
    }
    button.disabled = true;
    say(box, "working");
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        await show();
        return;
      }
      // The browser's push service may never answer: say so after a while.
      await within(subscribe(box), Number(box.dataset.timeout) || 10000);
      if (box.dataset.reload) window.location.reload();
      await show();
    } catch (error) {
      if (error instanceof Unavailable) {
        button.hidden = true;
        say(box, "unsupported");
      } else {
        say(box, error instanceof Unreachable ? "unreachable" : "failed");
      }
    } finally {
      button.disabled = false;
    }
  });

  if (document.querySelector("[data-push]")) show();
  // The table's panels are swapped in by its updates: show the state again.
  document.addEventListener("htmx:afterSettle", () => {
    if (document.querySelector("[data-push]")) show();
  });
}
