// Small progressive enhancements; the site works without JavaScript.
document.documentElement.classList.add("js");

// Whether the player is using the keyboard: the card the page focuses when a turn starts
// shows the keyboard's outline only then (to a tap, an outlined card looked chosen).
document.addEventListener("keydown", (event) => {
  if (!event.ctrlKey && !event.metaKey && !event.altKey) {
    document.documentElement.dataset.keyboard = "";
  }
}, { capture: true });
document.addEventListener("pointerdown", () => {
  delete document.documentElement.dataset.keyboard;
}, { capture: true });

// The version and the key of its own part that a table's page shows, as its poller asks
// with them (null on a page without a poller).
const pollerShows = () => {
  const poller = document.getElementById("poller");
  const address = poller && poller.getAttribute("hx-get");
  if (!address) return null;
  const query = new URLSearchParams(address.split("?")[1] || "");
  return { v: Number(query.get("v")), key: query.get("me") || "", poller };
};
// A choice that sends its form at once: chosen with the pointer, it goes; chosen with the
// keyboard's arrows (each step a change), only with Enter or once the focus leaves it, so
// that a keyboard can step past the choices between.
{
  let keyed = null;
  const chosen = (el) => el.value !== ([...el.options].find((o) => o.defaultSelected) || {}).value;
  document.addEventListener("keydown", (event) => {
    const el = event.target;
    if (!el.matches || !el.matches("select[data-autosubmit]")) return;
    if (event.key === "Enter") {
      event.preventDefault();
      if (chosen(el)) el.form.requestSubmit();
    } else if (event.key !== "Tab" && event.key !== "Shift") {
      keyed = el;
    }
  });
  document.addEventListener("pointerdown", () => { keyed = null; }, { capture: true });
  document.addEventListener("change", (event) => {
    const el = event.target;
    if (el.matches("[data-autosubmit]") && el !== keyed) el.form.requestSubmit();
  });
  document.addEventListener("focusout", (event) => {
    const el = event.target;
    if (el === keyed) {
      keyed = null;
      if (chosen(el)) el.form.requestSubmit();
    }
  });
}

// A link's fragment ("#chat", "#id_notify") reaches the login page on its address, never
// the server: it rides on with the page to come back to (the form's "next" and the way to
// sign up), so that the login leads to that part of the page, not to its top.
if (window.location.hash.length > 1) {
  const hash = window.location.hash;
  document.querySelectorAll(".account-form input[name=next]").forEach((input) => {
    if (input.value && !input.value.includes("#")) input.value += hash;
  });
  document.querySelectorAll(".account-links a[href*='next=']").forEach((link) => {
    const url = new URL(link.href);
    const next = url.searchParams.get("next");
    if (next && !next.includes("#")) {
      url.searchParams.set("next", next + hash);
      link.href = url.pathname + url.search;
    }
  });
}

// How many tables await the player: the header's count, the tab's title "(2) …" and the
// installed app's badge, where the browser has the Badging API (the page says how many; a
// page of someone logged out says nothing). A page left open asks for the count anew every
// minute while in view and when the tab comes back; My games' lists, drawn again, and a
// table's page's own part (the reader's turn there came or went) bring it with them.
// A table's page puts "(Your turn)" before the title (`titled.turn`).
const titled = { base: document.title.replace(/^\(\d+\) /, ""), turn: "" };
const retitle = () => {
  const count = parseInt(document.body.dataset.awaiting, 10) || 0;
  document.title = (titled.turn ? `${titled.turn} ` : "") + (count ? `(${count}) ` : "")
    + titled.base;
};
{
  const badge = (awaiting) => {
    if (awaiting !== undefined && "setAppBadge" in navigator) {
      const count = parseInt(awaiting, 10) || 0;
      (count ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(() => {});
    }
  };
  badge(document.body.dataset.awaiting);
  document.addEventListener("htmx:load", (event) => {
    const drawn = event.detail.elt;
    if (!(drawn instanceof Element) || drawn === document.body || !drawn.dataset.awaiting) return;
    const count = String(parseInt(drawn.dataset.awaiting, 10) || 0);
    if (count === document.body.dataset.awaiting) return;
    document.body.dataset.awaiting = count;
    retitle();
    badge(count);
  });
  const ask = () => {
    const url = document.body.dataset.awaitingUrl;
    if (!url || !window.htmx || document.hidden
        || document.querySelector("[data-refresh-on-return]")) return;
    window.htmx.ajax("GET", url, { target: "#awaiting-count", swap: "outerHTML" })
      .catch(() => {});
  };
  window.setInterval(ask, 60000);
  document.addEventListener("visibilitychange", ask);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) ask();
  });
}

// A part of the page that speaks as it changes (aria-live: whose turn it is, what was
// refused) is changed in place rather than swapped for a new one, which many screen
// readers would not read; and only when the server says something new, so that an update
// of the rest of the table does not repeat it (the page's own clocks in it aside).
{
  const served = new WeakMap();
  const speaks = "[aria-live], [role=status], [role=alert]";
  document.querySelectorAll(`${speaks}[id]`).forEach((el) => served.set(el, el.innerHTML));
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const target = event.detail.target;
    const incoming = event.detail.fragment.firstElementChild;
    if (!incoming || incoming.id !== target.id || !target.matches(speaks) || !event.detail.shouldSwap) return;
    event.detail.shouldSwap = false;
    for (const { name } of [...target.attributes]) {
      if (!incoming.hasAttribute(name)) target.removeAttribute(name);
    }
    for (const { name, value } of incoming.attributes) {
      if (target.getAttribute(name) !== value) target.setAttribute(name, value);
    }
    if (served.get(target) !== incoming.innerHTML) {
      served.set(target, incoming.innerHTML);
      target.replaceChildren(...incoming.childNodes);
      if (window.htmx) {
        window.htmx.process(target);
        window.htmx.trigger(target, "htmx:load", { elt: target });
      }
    }
  });
}

// Whether someone is writing in a field: nothing may take the focus from them.
const typing = (el) => Boolean(el && el.matches && el.matches(
  "textarea, select, [contenteditable], input:not([type=checkbox]):not([type=radio])"
  + ":not([type=button]):not([type=submit]):not([type=hidden])"));

// A redraw never drops a keyboard player's focus to the top of the page. Where the focus
// was when a request started or a swap came (the button that sent it is disabled while
// it runs, or the part around it is drawn again) is found again once the swap settled:
// under the nearest id around it, the element marked as it was (its tag, classes, name,
// value, rel and data- marks; the first, second… of those alike, as it was), else none;
// a folded part it was in stays open.
{
  const MARKS = ["name", "value", "rel", "type"];
  const marks = (el) => {
    const kept = [...el.attributes]
      .filter(({ name }) => MARKS.includes(name) || (name.startsWith("data-") && name !== "data-empty"))
      .map(({ name, value }) => `${name}=${value}`);
    // Not the classes htmx puts on while a request runs.
    const classes = [...el.classList].filter((c) => !c.startsWith("htmx-"));
    return [el.tagName, ...kept.sort(), ...classes.sort()].join(" ");
  };
  const alike = (anchor, mark, tag) => [...anchor.querySelectorAll(tag)].filter((el) => marks(el) === mark);
  let held = null;
  const place = () => {
    const el = document.activeElement;
    if (!el || el === document.body || !el.closest) return null;
    const anchor = el.closest("[id]");
    if (!anchor) return null;
    const tag = el.tagName.toLowerCase();
    const mark = marks(el);
    const folded = el.closest("details");
    return { id: anchor.id, tag: anchor === el ? "" : tag, mark,
             nth: anchor === el ? 0 : alike(anchor, mark, tag).indexOf(el),
             open: Boolean(folded && folded.open && anchor.contains(folded)) };
  };
  const hold = () => { held = place() || held; };
  let pending = 0;
  const restore = () => {
    pending = 0;
    const spot = held;
    held = null;
    if (!spot || (document.activeElement && document.activeElement !== document.body)) return;
    const anchor = document.getElementById(spot.id);
    const el = anchor && (spot.tag ? alike(anchor, spot.mark, spot.tag)[spot.nth] : anchor);
    if (!el) return;
    const folded = el.closest("details");
    if (spot.open && folded && !folded.open) folded.open = true;
    if (!el.disabled) el.focus({ preventScroll: true });
  };
  // Where the focus was as a request is asked for (before its button is disabled), kept
  // once the request is sent (a request the page holds back swaps nothing).
  let asked = null;
  document.addEventListener("htmx:beforeRequest", () => { asked = place(); });
  document.addEventListener("htmx:beforeSend", () => { held = asked || held; asked = null; });
  ["htmx:beforeSwap", "htmx:oobBeforeSwap", "htmx:sseBeforeMessage"]
    .forEach((name) => document.addEventListener(name, hold));
  // A tap or a click puts the focus where it wants it.
  document.addEventListener("pointerdown", () => { held = null; }, { capture: true });
  // After the swap has settled; a swap that replaced the element that asked for it
  // (the replay's steps) settles out of the document's hearing: its swap is heard.
  document.addEventListener("htmx:afterSwap", () => {
    if (!pending) {
      pending = window.setTimeout(restore, ((window.htmx && window.htmx.config.defaultSettleDelay) || 20) + 20);
    }
  });
  document.addEventListener("htmx:afterSettle", () => {
    window.clearTimeout(pending);
    pending = window.setTimeout(restore, 0);
  });
  // A request answered without a swap (nothing new) leaves the focus where it is: what it
  // held is forgotten, not found again at some later swap.
  document.addEventListener("htmx:afterRequest", () => {
    if (!pending) held = null;
  });
}

// A form sent back with what it refused: the focus goes to the first field refused (not to
// the field the page focuses when new), where its error is read with it.
{
  const refused = document.querySelector("main form [aria-invalid=true]");
  if (refused && !document.querySelector("main .error-summary")) refused.focus();
}

// The invitation link selects itself for copying.
document.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-select-on-focus]")) {
    event.target.select();
  }
});

// A rejected message (400, too long; 429, too fast) still swaps in its error.
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (event.detail.elt.closest("[data-chat-form]") && (status === 400 || status === 429)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// "That did not go through" shows over the page until it is tapped, the next form of
// the page is answered, or ALERT_MS have passed (the page's own polls leave it alone).
// It sits under whatever bar holds the top of the screen (the site header, the phone's
// talk sheet's head), over everything else, never over the bar's links.
{
  const ALERT_MS = 12000;
  const alerts = document.getElementById("alerts");
  if (alerts) {
    let timer = 0;
    const clear = () => {
      window.clearTimeout(timer);
      alerts.replaceChildren();
      delete alerts.dataset.kind;
    };
    const place = () => {
      if (!alerts.firstChild) return;
      const sheet = document.querySelector("[data-chat-panel][open]");
      const bars = [document.querySelector(".site-header"),
        sheet && getComputedStyle(sheet).position === "fixed" && sheet.querySelector("summary")];
      const top = Math.max(0, ...bars.filter((bar) => bar && bar.getClientRects().length)
        .map((bar) => bar.getBoundingClientRect().bottom));
      alerts.style.setProperty("--alerts-top", `${top}px`);
    };
    window.addEventListener("scroll", place, { passive: true });
    window.addEventListener("resize", place);
    document.addEventListener("toggle", place, true);
    // A tap anywhere on it takes it away; its ✕ is a button, for the keyboard and the
    // screen reader. Closed from the keyboard, the focus goes on into the page.
    alerts.addEventListener("click", () => {
      const focused = alerts.contains(document.activeElement);
      clear();
      const main = document.getElementById("main");
      if (focused && main) main.focus({ preventScroll: true });
    });
    const closable = () => {
      const line = alerts.querySelector(".error");
      if (!line || line.querySelector(".alert-close")) return;
      const close = document.createElement("button");
      close.type = "button";
      close.className = "alert-close";
      close.setAttribute("aria-label", alerts.dataset.close);
      close.textContent = "✕";
      line.append(close);
    };
    document.addEventListener("htmx:afterSwap", (event) => {
      if (event.detail.target === alerts) {
        alerts.dataset.kind = "unavailable";
        closable();
        place();
        window.clearTimeout(timer);
        timer = window.setTimeout(clear, ALERT_MS);
      }
    });
    // A form answered (done, or refused with the reason: "your move was already
    // recorded") shows where things stand: what was said about an earlier one goes.
    document.addEventListener("htmx:afterRequest", (event) => {
      const xhr = event.detail.xhr;
      const verb = (event.detail.requestConfig || {}).verb || "get";
      if (alerts.firstChild && xhr && verb !== "get" && xhr.status >= 200 && xhr.status < 500) {
        clear();
      }
    });
    // So does the table heard afresh (a poll or the stream brought it), after a form
    // whose answer was lost.
    document.addEventListener("dalmuti:heard", () => {
      if (alerts.dataset.kind === "maybe") clear();
    });
    // A form whose request never reached the server (offline, a dropped connection) or
    // that met a server error answers nothing to swap in: say so, or the tap seems lost.
    // The page's own reads (polls, the stream) try again by themselves.
    const say = (text, kind) => {
      const line = document.createElement("p");
      line.className = "error";
      line.setAttribute("role", "alert");
      line.textContent = text;
      alerts.replaceChildren(line);
      alerts.dataset.kind = kind;
      closable();
      place();
      window.clearTimeout(timer);
      timer = window.setTimeout(clear, ALERT_MS);
    };
    const sent = (event) => ((event.detail.requestConfig || {}).verb || "get") !== "get";
    // Offline, nothing left the device. Otherwise the connection may have dropped after
    // the request arrived, its answer lost: it may have been done.
    const unreached = (event) => {
      if (!sent(event)) return;
      if (navigator.onLine === false) say(alerts.dataset.unreachable, "unreached");
      else say(alerts.dataset.maybe, "maybe");
    };
    document.addEventListener("htmx:sendError", unreached);
    document.addEventListener("htmx:responseError", (event) => {
      const xhr = event.detail.xhr;
      if (sent(event) && xhr && xhr.status >= 500 && xhr.status !== 503) {
        say(alerts.dataset.failed, "failed");
      }
    });
  }
}

// Each message goes with a token of its own (the form is drawn with the first): sent
// again after its answer was lost on the way, it is said once. A token belongs to the
// words it was first sent with (a flourish's, the button tapped); other words, or the
// next message, get a fresh one.
const freshToken = () => [...window.crypto.getRandomValues(new Uint8Array(16))]
  .map((byte) => byte.toString(16).padStart(2, "0")).join("");
document.addEventListener("htmx:confirm", (event) => {
  const form = event.detail.elt.closest && event.detail.elt.closest("[data-chat-form]");
  const token = form && form.querySelector("input[name=token]");
  if (!token) return;
  const input = form.querySelector("input[name=text]");
  const submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
  const words = input ? input.value : `flourish:${submitter ? submitter.value : ""}`;
  if (form.dataset.sentWith !== undefined && form.dataset.sentWith !== words) {
    token.value = freshToken();
  }
  form.dataset.sentWith = words;
});

// Once a message is posted, empty the input for the next one.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest("[data-chat-form]");
  if (form && event.detail.xhr.status === 200) {
    const input = form.querySelector("input[name=text]");
    if (input) {
      input.value = "";
    }
    const token = form.querySelector("input[name=token]");
    if (token) {
      token.value = freshToken();
      delete form.dataset.sentWith;
    }
  }
});

// At the table. The page works without any of this; with it, the tab title and icon say
// when it is your turn (and, if asked for, a short sound), tapping cards enables Play
// only for a legal set, the hand comes into view and the focus goes to what to do next,
// and table talk opens as a sheet on a phone with a count of unread messages.
{
  const game = document.getElementById("game");
  if (game) {
    const root = document.documentElement;
    const icon = document.querySelector("link[rel=icon]");
    const baseIcon = icon ? icon.href : "";
    const wide = window.matchMedia("(min-width: 60rem)");
    let wasMyTurn = false;

    // Nothing may hide under the move dock: its height is kept for the stylesheet.
    let dockHeight = 0;
    const measureDock = () => {
      const dock = document.getElementById("actions");
      const height = dock ? dock.offsetHeight : 0;
      const grew = height > dockHeight;
      dockHeight = height;
      root.style.setProperty("--dock-h", `${height}px`);
      // The dock grows as it names the cards chosen ("Play 2 Archbishops (1 Jester)"): the
      // page moves up so that none of them ends under it.
      const chosen = dock && grew && [...document.querySelectorAll(
        ".move-form input[name=card]:checked")].pop();
      if (chosen) {
        const below = chosen.closest(".hcard").getBoundingClientRect().bottom
          - dock.getBoundingClientRect().top;
        if (below > 0) window.scrollBy(0, below + 8);
      }
    };
    if (window.ResizeObserver) {
      const observer = new ResizeObserver(measureDock);
      const watch = () => {
        observer.disconnect();
        const dock = document.getElementById("actions");
        if (dock) observer.observe(dock);
      };
      document.addEventListener("htmx:afterSettle", watch);
      watch();
    }

    // The chosen cards: Play says what it plays, and only a legal set can be sent; the
    // cards to give back are counted against the number due.
    // The move form whose move is on its way: while it is the page's, its hand is held. A
    // form drawn since (the answer, or the table heard afresh) holds nothing.
    let sendingForm = null;
    const holding = () => {
      if (root.dataset.sending === undefined) return false;
      if (sendingForm && sendingForm.isConnected) return true;
      delete root.dataset.sending;
      sendingForm = null;
      return false;
    };
    const refreshMove = () => {
      const form = document.querySelector(".move-form");
      if (!form || holding()) return;
      const chosen = [...form.querySelectorAll("input[name=card]:checked")]
        .map((input) => Number(input.value))
        .sort((a, b) => a - b);
      if (form.dataset.move === "play") {
        const button = document.querySelector("[data-play-button]");
        if (!button) return;
        if (!button.dataset.empty) button.dataset.empty = button.textContent;
        const legal = JSON.parse(form.dataset.legal || "{}");
        const words = legal[chosen.join(",")];
        button.disabled = !words;
        button.textContent = words ? button.dataset.label.replace("%(cards)s", words) : button.dataset.empty;
      } else if (form.dataset.move === "give_back") {
        const due = Number(form.dataset.due);
        const count = document.querySelector("[data-chosen]");
        if (count) count.textContent = `${chosen.length} / ${due}`;
        const button = document.querySelector("[data-give-button]");
        if (button) button.disabled = chosen.length !== due;
      }
    };
    document.addEventListener("change", (event) => {
      if (event.target.closest(".move-form")) refreshMove();
    });

    // A move on its way: the hand stays as it was sent and the dock's buttons stay
    // disabled until the answer comes (a card tapped meanwhile would enable Play again,
    // for a move htmx would drop while the first one is played), the button pressed
    // saying that it is sending (a faded button reads as "nothing to play").
    let pressed = null;
    const moveRequest = (event) => {
      const config = event.detail.requestConfig || {};
      const elt = config.elt || event.detail.elt;
      return Boolean(elt && elt.matches && elt.matches("[data-move-form]"));
    };
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (!moveRequest(event)) return;
      root.dataset.sending = "";
      sendingForm = (event.detail.requestConfig || {}).elt || event.detail.elt;
      const triggering = (event.detail.requestConfig || {}).triggeringEvent;
      const dock = document.getElementById("actions");
      pressed = (triggering && triggering.submitter) || null;
      if (pressed && dock && dock.dataset.sending) {
        pressed.dataset.shown = pressed.textContent;
        pressed.textContent = dock.dataset.sending;
        pressed.classList.add("is-sending");
        pressed.setAttribute("aria-busy", "true");
      }
    });
    const released = (event) => {
      if (!moveRequest(event) || root.dataset.sending === undefined) return;
      delete root.dataset.sending;
      sendingForm = null;
      if (pressed && pressed.isConnected && pressed.dataset.shown !== undefined) {
        pressed.textContent = pressed.dataset.shown;
        delete pressed.dataset.shown;
        pressed.classList.remove("is-sending");
        pressed.removeAttribute("aria-busy");
      }
      pressed = null;
      refreshMove();
    };
    // The answer came, or the request ended without one.
    for (const name of ["htmx:afterRequest", "htmx:sendAbort", "htmx:timeout"]) {
      document.addEventListener(name, released);
    }
    document.addEventListener("click", (event) => {
      if (holding() && event.target.closest
          && event.target.closest(".move-form .hcard")) {
        event.preventDefault();
      }
    }, true);
    // Enter on a card chooses it, as Space does: a form's Enter would send its first
    // button, which may be Pass.
    document.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.matches(".move-form input[name=card]")) {
        event.preventDefault();
        event.target.click();
      }
    });

    // A short two-note chime, off unless the player switches it on (kept per browser).
    const soundButton = game.querySelector("[data-sound-toggle]");
    let audio = null;
    const soundOn = () => localStorage.getItem("dalmuti-sound") === "on";
    const showSound = () => {
      soundButton.classList.toggle("is-on", soundOn());
      soundButton.setAttribute("aria-pressed", soundOn() ? "true" : "false");
      soundButton.textContent = soundOn() ? soundButton.dataset.on : soundButton.dataset.off;
    };
    const chime = () => {
      if (!soundOn()) return;
      audio = audio || new AudioContext();
      const start = audio.currentTime;
      [660, 880].forEach((frequency, i) => {
        const tone = audio.createOscillator();
        const volume = audio.createGain();
        tone.frequency.value = frequency;
        volume.gain.setValueAtTime(0.0001, start + i * 0.16);
        volume.gain.exponentialRampToValueAtTime(0.15, start + i * 0.16 + 0.02);
        volume.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.3);
        tone.connect(volume).connect(audio.destination);
        tone.start(start + i * 0.16);
        tone.stop(start + i * 0.16 + 0.32);
      });
    };
    if (soundButton && window.AudioContext && window.localStorage) {
      soundButton.hidden = false;
      showSound();
      soundButton.addEventListener("click", () => {
        localStorage.setItem("dalmuti-sound", soundOn() ? "off" : "on");
        showSound();
        chime();
      });
    }

    // Whether the player's own move (or hint) is what the page swaps in now.
    let moved = false;
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (event.detail.elt.closest("#actions, .move-form")) moved = true;
    });
    const update = () => {
      const dock = document.getElementById("actions");
      const myTurn = Boolean(dock);
      titled.turn = myTurn ? game.dataset.yourTurn : "";
      retitle();
      if (icon) {
        icon.href = myTurn && icon.dataset.turnIcon ? icon.dataset.turnIcon : baseIcon;
      }
      measureDock();
      refreshMove();
      const error = dock && dock.querySelector(".action-error");
      // The move just sent disabled its button (and the dock is drawn again): where the
      // turn comes straight back, the focus goes to the first thing to do again.
      const lost = moved && (!document.activeElement || document.activeElement === document.body);
      moved = false;
      if (myTurn && !wasMyTurn) chime();
      // Not while the player writes (in the talk, say): the title and the chime tell them.
      if (myTurn && (!wasMyTurn || error || lost) && !typing(document.activeElement)) {
        // Your turn starts (or a move was refused): the hand comes into view and the
        // focus goes to the first thing to do.
        const hand = document.querySelector(".hand");
        if (hand) hand.scrollIntoView({ block: "nearest" });
        // A guided game's tip sits just above the hand: it comes into view too.
        const tip = document.querySelector("#tip .tip");
        if (tip) tip.scrollIntoView({ block: "nearest" });
        const target = error ? dock
          : document.querySelector(".move-form input[name=card]:not(:disabled)")
            || dock.querySelector("button:not(:disabled)") || dock;
        target.focus({ preventScroll: true });
      } else if (!myTurn && wasMyTurn) {
        const status = document.getElementById("status");
        if (status && (!document.activeElement || document.activeElement === document.body)) {
          status.focus({ preventScroll: true });
        }
      }
      wasMyTurn = myTurn;
    };
    update();
    document.addEventListener("htmx:afterSettle", update);
    window.addEventListener("resize", measureDock);

    // Table talk.
    const panel = document.querySelector("[data-chat-panel]");
    const badge = game.querySelector("[data-chat-badge]");
    const toggle = game.querySelector("[data-chat-toggle]");
    if (panel) {
      const key = `dalmuti-chat-read-${location.pathname}`;
      const stored = () => Number((window.localStorage && localStorage.getItem(key)) || 0);
      let read = Math.max(stored(), Number(panel.dataset.readBefore || 0));
      const visible = () => panel.open && panel.getClientRects().length > 0;
      const countUnread = () => {
        if (visible()) {
          const seen = document.getElementById("chat-seen");
          read = Math.max(read, Number(seen ? seen.value : 0));
          if (window.localStorage) localStorage.setItem(key, String(read));
        }
        const unread = [...panel.querySelectorAll(".chat-msg[data-id]")]
          .filter((m) => Number(m.dataset.id) > read && !m.classList.contains("mine")).length;
        if (badge) {
          badge.hidden = unread === 0;
          badge.textContent = String(unread);
        }
        if (toggle) toggle.setAttribute("aria-expanded", visible() ? "true" : "false");
      };
      if (wide.matches) panel.open = true;
      if (toggle) {
        toggle.addEventListener("click", (event) => {
          event.preventDefault();
          panel.open = true;
          const input = panel.querySelector("input[name=text]");
          if (input) input.focus();
        });
      }
      panel.addEventListener("toggle", countUnread);
      document.addEventListener("keydown", (event) => {
        // Not the Escape that closed the list of names under the message field.
        if (event.key === "Escape" && !event.defaultPrevented && panel.open && !wide.matches) {
          panel.open = false;
          if (toggle) toggle.focus();
        }
        // On a phone the sheet covers the page: Tab goes round inside it, never to what
        // lies hidden behind it (Escape or its ✕ closes it).
        if (event.key === "Tab" && panel.open && !wide.matches
            && panel.contains(document.activeElement)) {
          const stops = [...panel.querySelectorAll(
            "a[href], button:not(:disabled), input:not([type=hidden]):not(:disabled), select, textarea, summary")]
            .filter((el) => el.getClientRects().length > 0);
          const [first, last] = [stops[0], stops[stops.length - 1]];
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }
      });
      document.addEventListener("htmx:afterSettle", countUnread);
      countUnread();
    }
  }
}

// Answers that crossed on the way. A poll, a move or any form that answers with the
// table is asked of the table as the page showed it, and answered in place of its poller;
// another answer may have moved the page on (and drawn a new poller) before this one
// comes back: the player's move answered while a poll was out, a poll while the move was,
// an update the stream brought. A poll's answer then swaps nothing: drawn again, the hand
// would lose the cards chosen since, or the page go back to an older table; where it
// knew of a newer table than the page shows, the page asks again. A form's answer (a
// refusal with its message among them) is swapped in where the page's poller is now;
// where that took the page back to an older table, the page asks at once.
{
  const versionIn = (html) => {
    const found = /id="poller"[^>]*?\?v=(\d+)&/.exec(html || "");
    return found ? Number(found[1]) : null;
  };
  const ask = () => {
    const poller = document.getElementById("poller");
    if (poller && window.htmx) window.htmx.trigger(poller, "ask");
  };
  // Once the answer swapping now has settled: its new poller listens only then.
  const askWhenSettled = () => document.addEventListener("htmx:afterSettle", ask, { once: true });
  document.addEventListener("htmx:beforeCleanupElement", (event) => {
    const replaced = event.target;
    if (replaced.id !== "poller") return;
    replaced.addEventListener("htmx:beforeSwap", (swap) => {
      // An answer the server sent elsewhere ("that did not go through", to the alerts)
      // is not the table's.
      if (swap.detail.target !== replaced) return;
      const shown = pollerShows();
      const answered = versionIn(swap.detail.serverResponse);
      if ((swap.detail.requestConfig || {}).elt === replaced) {
        swap.detail.shouldSwap = false;
        // An answer without a version is the game's end, or nothing at all.
        if (shown && (answered === null ? Boolean(swap.detail.serverResponse) : answered > shown.v)) {
          window.setTimeout(ask, 0);
        }
        return;
      }
      const poller = document.getElementById("poller");
      if (!poller) return;
      swap.detail.target = poller;
      if (shown && answered !== null && answered < shown.v) askWhenSettled();
    });
  });
}

// A live stream tells the page of every change at once, and brings it: an update drawn
// for every page of the table (games/views/updates.py) comes right after the change's
// "table" event, with what the page must show for it to fit (the version it starts from,
// the keys of the page's own part and folded panels, the round, the day its log's times
// were written). An
// update that fits is swapped in; otherwise, or when none comes within UPDATE_WAIT_MS,
// the page asks (the poller's `ask`), as it does for the table talk's news. While the
// stream proves alive (its events and its heartbeat), the regular poll runs only as a
// safety net, every STREAM_SAFETY_SECONDS (the site's setting, on #game). Without
// a stream (no Redis, a proxy that buffers) nothing changes.
{
  // Read when needed: the page may have come in without a reload.
  const safetyMs = () => {
    const game = document.getElementById("game");
    return 1000 * (Number(game && game.dataset.streamSafety) || 30);
  };
  const STREAM_SILENCE_MS = 40000;
  // The stream answers each new version's event within 5 s (FOLLOW_SECONDS): this only
  // covers an answer lost on the way.
  const UPDATE_WAIT_MS = 6000;
  let streamAlive = 0;
  // Whether the stream broke since it last opened: what was announced meanwhile never
  // reached the page, which asks as soon as its stream is back.
  let streamLost = false;
  // The safety net counts from when the page last heard the table whole: its drawing,
  // then each poll and each update that fit (not from nought, or the first tick of a
  // page that never had to ask would go through). A page its stream keeps up polls only
  // once its table has been quiet for the whole interval.
  let lastPoll = Date.now();
  let waiting = 0;
  const ask = () => {
    window.clearTimeout(waiting);
    waiting = 0;
    const poller = document.getElementById("poller");
    if (poller && window.htmx) window.htmx.trigger(poller, "ask");
  };
  // What the page shows: its version and own part (the poller's address), round, day and
  // folded panels (#looked).
  const shown = () => {
    const page = pollerShows();
    const looked = document.getElementById("looked");
    if (!page || !looked) return null;
    const value = (name) => (looked.querySelector(`input[name=${name}]`) || {}).value;
    return { ...page, round: value("r"), day: value("d"), panels: value("p") };
  };
  const bring = (event) => {
    window.clearTimeout(waiting);
    waiting = 0;
    const cut = event.data.indexOf("\n");
    const head = JSON.parse(cut < 0 ? event.data : event.data.slice(0, cut));
    const page = shown();
    if (!page || head.v <= page.v) return;  // shown already: the answer to its own move
    // An update that brings the page's own part (the turn came to it) fits whatever
    // own part the page showed.
    const fits = !head.ask && cut >= 0 && head.since === page.v
      && (head.key === page.key || head.mine === true)
      && String(head.round) === page.round && head.day === page.day
      && head.panels === page.panels;
    if (!fits || !window.htmx) {
      ask();
      return;
    }
    window.htmx.swap(page.poller, event.data.slice(cut + 1), { swapStyle: "none" });
    lastPoll = Date.now();
    document.dispatchEvent(new CustomEvent("dalmuti:heard"));
  };
  // A question that failed (the connection blinked as the stream told of a change) is
  // asked again soon, a little later each time, rather than at the next safety poll;
  // while the device is offline, as soon as it is back. A tab coming back into view asks
  // when it owes a question or its stream has not been heard from.
  const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
  let retries = 0;
  let retryTimer = 0;
  let owed = false;
  const retry = () => {
    owed = true;
    window.clearTimeout(retryTimer);
    if (navigator.onLine === false) return;
    retryTimer = window.setTimeout(ask, RETRY_MS[Math.min(retries, RETRY_MS.length - 1)]);
    retries += 1;
  };
  document.addEventListener("htmx:afterRequest", (event) => {
    const config = event.detail.requestConfig || {};
    if (!config.elt || config.elt.id !== "poller") return;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 0 || status >= 500) {
      retry();
      return;
    }
    owed = false;
    retries = 0;
    window.clearTimeout(retryTimer);
    if (status === 200 || status === 286) document.dispatchEvent(new CustomEvent("dalmuti:heard"));
  });
  window.addEventListener("online", ask);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible"
        && (owed || streamLost || Date.now() - streamAlive > STREAM_SILENCE_MS)) ask();
  });
  document.addEventListener("htmx:sseOpen", (event) => {
    streamAlive = Date.now();
    if (streamLost) {
      streamLost = false;
      ask();
    }
    const source = event.detail.source;
    source.addEventListener("ping", () => { streamAlive = Date.now(); });
    source.addEventListener("table", (message) => {
      streamAlive = Date.now();
      if (message.data.startsWith("v")) {
        window.clearTimeout(waiting);
        waiting = window.setTimeout(ask, UPDATE_WAIT_MS);
      } else {
        ask();
      }
    });
    source.addEventListener("update", (message) => {
      streamAlive = Date.now();
      bring(message);
    });
  });
  // What the table shows may change with time alone (a nudge or a vote opens, a pause
  // ends): #changes says when, in the server's seconds. A page its stream keeps up asks
  // then rather than at its next safety poll; its poll carries that time and is answered
  // with the table drawn again (games.views.drawn.time_came). The timer is cut to a day
  // at a time (a browser fires longer ones at once).
  const DAY_MS = 86400000;
  const holder = document.getElementById("game");
  const skew = holder ? Number(holder.dataset.now) * 1000 - Date.now() : 0;
  let changeTimer = 0;
  const askWhenChanged = () => {
    window.clearTimeout(changeTimer);
    const changes = document.getElementById("changes");
    const at = changes ? Number(changes.value) * 1000 : NaN;
    if (Number.isNaN(at) || Number.isNaN(skew)) return;
    // A second after the time: the device's clock, set to the server's, may be behind.
    const left = at + 1000 - (Date.now() + skew);
    changeTimer = window.setTimeout(left > DAY_MS ? askWhenChanged : ask,
                                    Math.max(0, Math.min(left, DAY_MS)));
  };
  askWhenChanged();
  document.addEventListener("htmx:afterSettle", askWhenChanged);
  document.addEventListener("htmx:sseError", () => {
    streamAlive = 0;
    streamLost = true;
  });
  // A stream closed for good ("closed": the same browser opened too many elsewhere)
  // does not come back; the page polls as it does without one.
  document.addEventListener("htmx:sseClose", () => { streamAlive = 0; });
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.id !== "poller") return;
    const config = event.detail.requestConfig || {};
    const told = config.triggeringEvent && config.triggeringEvent.type === "ask";
    const now = Date.now();
    if (!told && now - streamAlive < STREAM_SILENCE_MS && now - lastPoll < safetyMs()) {
      event.preventDefault();
      return;
    }
    lastPoll = now;
  });
}

// A table drawn in another language than the page (its reader chose another on another
// device): the page is read again whole, in that language, rather than the server's
// words in one and the script's in the other. Once per change: a page that came back in
// its old language is not read again and again.
document.addEventListener("htmx:afterSettle", () => {
  const poller = document.getElementById("poller");
  const drawnIn = poller && poller.dataset.lang;
  const shown = document.documentElement.lang;
  if (!drawnIn || drawnIn === shown) return;
  const change = `${shown}>${drawnIn}`;
  try {
    if (window.sessionStorage.getItem("dalmuti-language-change") === change) return;
    window.sessionStorage.setItem("dalmuti-language-change", change);
  } catch {
    return; // no storage to remember it by: the page stays as it is
  }
  window.location.reload();
});

// A seat's clock and how long a table has waited run on while the page stays open: an
// unchanged table sends the page nothing, so the times it was drawn with would stand
// still. They are written again every REFRESH_MS (and when the tab comes back), in the
// words the server writes them in (the data-time-words of #game or #my-games:
// games.templatetags `span`, `ago` and `waited`), counted from the server's clock as it
// drew them (data-now) rather than the device's. My games' lists are drawn again now and
// then: the clock is read again from each new drawing.
{
  let holder = document.querySelector("[data-time-words]");
  if (holder) {
    const REFRESH_MS = 15000;
    const words = JSON.parse(holder.dataset.timeWords);
    let skew = Number(holder.dataset.now) * 1000 - Date.now();
    // A number keeps its unit on its line ("59 min"), as the server writes it.
    const fill = (format, values) =>
      format.replace(/%\((\w+)\)d/g, (_, name) => String(values[name]))
        .replace(/(\d) /g, "$1\u00a0");
    const span = (ms) => {
      const seconds = Math.trunc(ms / 1000);
      if (seconds < 60) return fill(words.under, {});
      let minutes = Math.floor(seconds / 60);
      const days = Math.floor(minutes / 1440);
      minutes -= days * 1440;
      const hours = Math.floor(minutes / 60);
      minutes -= hours * 60;
      if (days) return fill(hours ? words.days : words.whole_days, { days, hours });
      if (hours) return fill(minutes ? words.hours : words.whole_hours, { hours, minutes });
      return fill(words.minutes, { minutes });
    };
    // Python writes microseconds; a date string holds milliseconds at most.
    const at = (time) => Date.parse(time.dateTime.replace(/(\.\d{3})\d+/, "$1"));
    const refresh = () => {
      const now = Date.now() + skew;
      const write = (time, text) => {
        if (time.textContent !== text) time.textContent = text;
      };
      // A time the page cannot read keeps what the server wrote.
      document.querySelectorAll("time[data-left]").forEach((time) => {
        const left = at(time) - now;
        if (!Number.isNaN(left)) write(time, span(left));
      });
      document.querySelectorAll("time[data-ago]").forEach((time) => {
        const passed = now - at(time);
        if (Number.isNaN(passed)) return;
        write(time, passed < 60000 ? words.now : words.ago.replace("%(time)s", span(passed)));
      });
      document.querySelectorAll("time[data-since]").forEach((time) => {
        const passed = now - at(time);
        if (Number.isNaN(passed)) return;
        write(time, passed < 60000 ? words.now : words.for.replace("%(ago)s", span(passed)));
      });
    };
    window.setInterval(refresh, REFRESH_MS);
    document.addEventListener("htmx:load", (event) => {
      const drawn = event.detail.elt;
      if (drawn instanceof Element && drawn.matches("[data-time-words]")) {
        holder = drawn;
        skew = Number(holder.dataset.now) * 1000 - Date.now();
      }
    });
    // What the lists show may have changed meanwhile: they are drawn again when the tab
    // comes back, or the page comes back from the browser's back-forward cache.
    const drawAgain = () => {
      const lists = document.querySelector("[data-refresh-on-return]");
      if (lists && window.htmx) window.htmx.trigger(lists, "refresh");
    };
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) return;
      refresh();
      drawAgain();
    });
    window.addEventListener("pageshow", (event) => {
      if (!event.persisted) return;
      refresh();
      drawAgain();
    });
    // Lists nobody sees are not drawn again (a tab left open for days): they are when
    // the tab comes back. Nor are lists someone is going through with the keyboard: the
    // focus on one of their links would be lost with it.
    document.addEventListener("htmx:beforeRequest", (event) => {
      const lists = event.detail.elt;
      if (lists.matches("[data-refresh-on-return]")
          && (document.hidden || lists.contains(document.activeElement))) {
        event.preventDefault();
      }
    });
  }
}

// Replay: the arrow keys step back and forward (the links themselves swap the table in).
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
    return;
  }
  if (event.target.closest("input, select, textarea, [contenteditable]")) {
    return;
  }
  const which = { ArrowLeft: "[data-replay-prev]", ArrowRight: "[data-replay-next]" }[event.key];
  const link = which && document.querySelector(which);
  if (link) {
    event.preventDefault();
    // A key pressed while the last step is still settling must not find the new link
    // unprocessed: that click would load the whole page.
    if (window.htmx) {
      window.htmx.process(link);
    }
    link.click();
  }
});

// The new-table form: only the field for the chosen way of ending is shown, and options
// that cannot apply to the number of seats are switched off with the reason (the server
// refuses them anyway). The host's own choice is kept and comes back once the seats allow
// it again; a count being typed (empty, or not yet a number of seats) changes nothing.
{
  const form = document.querySelector("[data-table-form]");
  if (form) {
    const field = (name) => form.querySelector(`[name=${name}]`);
    const deck = field("reduced_deck");
    const trade = field("merchant_trade");
    const chosen = { deck: deck.checked, trade: trade.value };
    // Heard before the form's own listener, which draws the form from what was chosen.
    ["input", "change"].forEach((type) => {
      deck.addEventListener(type, () => { chosen.deck = deck.checked; });
      trade.addEventListener(type, () => { chosen.trade = trade.value; });
    });
    const refresh = () => {
      const end = (form.querySelector("[name=end]:checked") || {}).value;
      form.querySelectorAll("[data-when-end]").forEach((div) => {
        div.hidden = div.dataset.whenEnd !== end;
      });
      const input = field("seats");
      const seats = Number(input.value);
      const counted = input.value !== "" && Number.isInteger(seats)
        && seats >= Number(input.min || 0) && seats <= Number(input.max || Infinity);
      if (!counted) return;
      const noDeck = seats > 5;
      deck.disabled = noDeck;
      deck.checked = !noDeck && chosen.deck;
      form.querySelector("[data-reason=reduced_deck]").hidden = !noDeck;
      const from = parseInt(
        (form.querySelector("[name=merchant_trade_from]:checked") || {}).value, 10) || 6;
      const noTrade = seats < from;
      for (const option of trade.options) {
        option.disabled = noTrade && option.value !== "off";
      }
      trade.value = noTrade ? "off" : chosen.trade;
      form.querySelector("[data-reason=merchant_trade]").hidden = !noTrade;
    };
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    refresh();
  }
}

// A page of several forms, each with its own button (the profile): leaving it, or sending
// one of them, while another holds changes not sent, asks first (the browser's own
// question), rather than lose what was typed there.
{
  const forms = document.querySelectorAll("form[data-keep-edits]");
  if (forms.length) {
    const changed = new Set();
    for (const form of forms) {
      form.addEventListener("input", () => changed.add(form));
      form.addEventListener("change", () => changed.add(form));
      form.addEventListener("submit", () => changed.delete(form));
    }
    window.addEventListener("beforeunload", (event) => {
      if (changed.size) event.preventDefault();
    });
  }
}

// Sign-up: the new account gets the browser's time zone (editable later in the profile).
{
  const zone = document.querySelector("input[type=hidden][name=time_zone]");
  if (zone && !zone.value && window.Intl) {
    zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  }
}

// The profile, when no time zone is chosen: this device's zone, one tap away (chosen
// then, not saved: the form's own button does that). Only a zone the list offers; a
// browser may say a zone's old name (Asia/Calcutta), which the list has under its new one.
{
  const select = document.querySelector("select[data-device-zone]");
  const reported = select && !select.value && window.Intl
    && Intl.DateTimeFormat().resolvedOptions().timeZone;
  // Its new name first, else the name as said (a system whose zones have not moved on).
  const names = reported ? [JSON.parse(select.dataset.renamed || "{}")[reported], reported] : [];
  const option = names.length
    && [...select.options].find((o) => o.value && names.includes(o.value));
  const zone = option && option.value;
  if (option && zone !== select.dataset.siteZone) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link device-zone";
    // The zone's name and offset on one line ("Kolkata (UTC+5:30)").
    const named = option.textContent.replace(" (", "\u00a0(");
    button.textContent = select.dataset.deviceZone.replace("%(zone)s", named);
    button.addEventListener("click", () => {
      select.value = zone;
      // As a choice made in the select: the page then asks before it is lost.
      select.dispatchEvent(new Event("change", { bubbles: true }));
      button.remove();
      select.focus();
    });
    select.after(button);
  }
}

// The phone's site menu (a <details>, usable without this) closes on Escape and on a tap
// outside it, as menus do.
document.addEventListener("click", (event) => {
  const menu = document.querySelector(".site-menu[open]");
  if (menu && !menu.contains(event.target)) menu.open = false;
});
document.addEventListener("keydown", (event) => {
  const menu = document.querySelector(".site-menu[open]");
  if (menu && event.key === "Escape") {
    menu.open = false;
    menu.querySelector("summary").focus();
  }
});
// And when the keyboard leaves it: the page's links it would cover get the focus next.
document.addEventListener("focusout", (event) => {
  const menu = event.target.closest && event.target.closest(".site-menu[open]");
  const next = event.relatedTarget;
  if (menu && next && !menu.contains(next) && menu.querySelector("summary").offsetParent) {
    menu.open = false;
  }
});

// Naming a player in the table talk: typing "@" and the start of a seated player's name
// offers the names that fit (a combobox's listbox: arrows and Enter or Tab to choose, Escape
// to close, a tap on a phone); the chosen one is written in full, "@Name ".
{
  const MAX_SHOWN = 6;
  const query = (input) => {
    const before = input.value.slice(0, input.selectionStart ?? input.value.length);
    const match = /(^|\s)@([^@\n]{0,40})$/u.exec(before);
    return match ? { start: before.length - match[2].length - 1, text: match[2] } : null;
  };
  const listOf = (input) => document.getElementById(input.getAttribute("aria-controls"));
  const options = (input) => [...listOf(input).querySelectorAll("[role=option]")].filter((o) => !o.hidden);
  const close = (input) => {
    const list = listOf(input);
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    list.querySelectorAll("[aria-selected=true]").forEach((o) => o.setAttribute("aria-selected", "false"));
  };
  const select = (input, option) => {
    listOf(input).querySelectorAll("[aria-selected=true]").forEach((o) => o.setAttribute("aria-selected", "false"));
    option.setAttribute("aria-selected", "true");
    input.setAttribute("aria-activedescendant", option.id);
    // Only the list scrolls to the chosen name, never the sheet or the page behind it.
    const list = listOf(input);
    if (option.offsetTop < list.scrollTop) list.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = option.offsetTop + option.offsetHeight - list.clientHeight;
    }
  };
  const update = (input) => {
    const found = query(input);
    if (!found) { close(input); return; }
    const typed = found.text.toLocaleLowerCase();
    let shown = 0;
    for (const option of listOf(input).querySelectorAll("[role=option]")) {
      const fits = shown < MAX_SHOWN && option.dataset.name.toLocaleLowerCase().startsWith(typed)
        && option.dataset.name.toLocaleLowerCase() !== typed;
      option.hidden = !fits;
      shown += fits ? 1 : 0;
    }
    if (!shown) { close(input); return; }
    listOf(input).hidden = false;
    input.setAttribute("aria-expanded", "true");
    const current = document.getElementById(input.getAttribute("aria-activedescendant") || "");
    select(input, current && !current.hidden ? current : options(input)[0]);
  };
  const choose = (input, option) => {
    const found = query(input);
    if (!found) { close(input); return; }
    const end = input.selectionStart ?? input.value.length;
    const name = `@${option.dataset.name} `;
    input.value = input.value.slice(0, found.start) + name + input.value.slice(end);
    const caret = found.start + name.length;
    input.setSelectionRange(caret, caret);
    close(input);
    input.focus();
  };
  document.addEventListener("input", (event) => {
    if (event.target.matches("[data-mentions]")) update(event.target);
  });
  // Heard first (capture), so that an Escape it uses is marked before the talk panel's
  // own Escape, which would close the panel with the list, hears it.
  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!input.matches || !input.matches("[data-mentions]") || input.getAttribute("aria-expanded") !== "true") return;
    const shown = options(input);
    const at = shown.findIndex((o) => o.id === input.getAttribute("aria-activedescendant"));
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      select(input, shown[(at + step + shown.length) % shown.length]);
    } else if ((event.key === "Enter" || event.key === "Tab") && at >= 0) {
      event.preventDefault();
      choose(input, shown[at]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(input);
    }
  }, true);
  // A press on a name keeps the focus in the input (so a phone's keyboard stays up).
  document.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest(".chat-names [role=option]")) event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    const option = event.target.closest && event.target.closest(".chat-names [role=option]");
    if (option) {
      const input = document.querySelector(`[aria-controls="${option.parentElement.id}"]`);
      if (input) choose(input, option);
    }
  });
  document.addEventListener("focusout", (event) => {
    if (event.target.matches && event.target.matches("[data-mentions]")) close(event.target);
  });
}

// An update adds the log's new lines above those the page shows. Each poll and move says
// how many lines of which round the page shows, counted on the list itself (and which
// version), and an answer
// overtaken by another adds only the lines the list does not have, right above them (one
// that would leave a gap adds nothing: the next poll brings the lines in between).
{
  const shownLines = (list) => list.querySelectorAll(":scope > li[data-line]").length;
  document.addEventListener("htmx:configRequest", (event) => {
    const list = document.getElementById("log-lines");
    const params = event.detail.parameters;
    if (list && list.dataset.round && params.has && params.has("n")) {
      params.set("r", list.dataset.round);
      params.set("n", String(shownLines(list)));
      // The version the page shows (its poller's), which an update brought by the stream
      // may have moved on since #looked was drawn.
      const page = pollerShows();
      if (page) params.set("sv", String(page.v));
    }
  });
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const list = event.detail.target;
    const fragment = event.detail.fragment;
    if (list.id !== "log-lines" || !fragment.firstElementChild
        || fragment.firstElementChild.tagName !== "LI") return;
    const shown = shownLines(list);
    // An update the stream brought numbers its lines after the page's own ("+1", "+2"):
    // each reader's log has its own private lines.
    for (const line of fragment.children) {
      if (line.dataset.line.startsWith("+")) line.dataset.line = String(shown + Number(line.dataset.line));
    }
    for (const line of [...fragment.children]) {
      if (line.dataset.round !== list.dataset.round || +line.dataset.line <= shown) line.remove();
    }
    const oldest = fragment.lastElementChild;
    if (!oldest || +oldest.dataset.line !== shown + 1) event.detail.shouldSwap = false;
  });
}
