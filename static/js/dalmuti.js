// Small progressive enhancements; the site works without JavaScript.
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) {
    el.form.requestSubmit();
  }
});

// The invitation link selects itself for copying.
document.addEventListener("focusin", (event) => {
  if (event.target.matches("[data-select-on-focus]")) {
    event.target.select();
  }
});

// Table talk (chat): open the panel where the screen has room for it.
{
  const panel = document.querySelector("[data-chat-panel]");
  if (panel && window.matchMedia("(min-width: 52rem)").matches) {
    panel.open = true;
  }
}

// A rejected message (400, too long; 429, too fast) still swaps in its error.
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  if (event.detail.elt.closest("[data-chat-form]") && (status === 400 || status === 429)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// Once a message is posted, empty the input for the next one.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt.closest("[data-chat-form]");
  if (form && event.detail.xhr.status === 200) {
    const input = form.querySelector("input[name=text]");
    if (input) {
      input.value = "";
    }
  }
});

// At the table: the tab title and icon say when it is your turn, the move dock takes
// the keyboard focus when your turn starts, and a refused move shows why.
{
  const game = document.getElementById("game");
  if (game) {
    const baseTitle = document.title;
    const icon = document.querySelector("link[rel=icon]");
    const baseIcon = icon ? icon.href : "";
    let wasMyTurn = false;
    const update = () => {
      const dock = document.getElementById("actions");
      const myTurn = Boolean(dock);
      document.title = myTurn ? `${game.dataset.yourTurn} ${baseTitle}` : baseTitle;
      if (icon) {
        icon.href = myTurn ? baseIcon.replace("favicon.svg", "favicon-turn.svg") : baseIcon;
      }
      if (myTurn && (!wasMyTurn || dock.querySelector(".action-error"))) {
        const first = dock.querySelector(".action-error") ? dock : dock.querySelector("button, summary, input");
        (first || dock).focus({ preventScroll: true });
      }
      wasMyTurn = myTurn;
    };
    update();
    document.addEventListener("htmx:afterSettle", update);
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
// refuses them anyway).
{
  const form = document.querySelector("[data-table-form]");
  if (form) {
    const field = (name) => form.querySelector(`[name=${name}]`);
    const refresh = () => {
      const seats = parseInt(field("seats").value, 10) || 0;
      const end = (form.querySelector("[name=end]:checked") || {}).value;
      form.querySelectorAll("[data-when-end]").forEach((div) => {
        div.hidden = div.dataset.whenEnd !== end;
      });
      const deck = field("reduced_deck");
      const noDeck = seats > 5;
      deck.disabled = noDeck;
      if (noDeck) deck.checked = false;
      form.querySelector("[data-reason=reduced_deck]").hidden = !noDeck;
      const trade = field("merchant_trade");
      const from = parseInt((field("merchant_trade_from") || {}).value, 10) || 6;
      const noTrade = seats < from;
      for (const option of trade.options) {
        option.disabled = noTrade && option.value !== "off";
      }
      if (noTrade) trade.value = "off";
      form.querySelector("[data-reason=merchant_trade]").hidden = !noTrade;
    };
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    refresh();
  }
}
