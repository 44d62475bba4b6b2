// The installable app and push notifications: the service worker, the "Install" hint
// where the browser offers one, and switching notifications on for this device. Nothing
// asks for permission until the player presses the button.
{
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  }

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

  const show = async () => {
    for (const box of document.querySelectorAll("[data-push]")) {
      const button = box.querySelector("[data-push-on]");
      const state = box.querySelector("[data-push-state]");
      if (!supported) {
        state.textContent = box.dataset.unsupported;
        continue;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      const on = Boolean(subscription) && Notification.permission === "granted";
      button.hidden = on;
      state.textContent = on ? box.dataset.on : (Notification.permission === "denied"
        ? box.dataset.denied : "");
    }
  };

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-push-on]");
    if (!button || !supported) return;
    const box = button.closest("[data-push]");
    button.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        await show();
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription()
        || await registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key),
        });
      const answer = await fetch(box.dataset.url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!answer.ok) throw new Error(String(answer.status));
      if (box.dataset.reload) window.location.reload();
      await show();
    } catch (error) {
      box.querySelector("[data-push-state]").textContent = box.dataset.failed;
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
