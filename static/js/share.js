// Passing a link on: the phone's share sheet where the browser has the Web Share API,
// else the clipboard, with a confirmation read out too. Without JavaScript the button
// stays hidden and the link stays selectable text (templates/_share_link.html).
const canShare = typeof navigator.share === "function";

function label(box) {
  const button = box.querySelector("[data-share-button]");
  if (button && button.hidden) {
    button.textContent = canShare ? button.dataset.labelShare : button.dataset.labelCopy;
    button.hidden = false;
  }
}

function showAll(root) {
  // A part swapped in may be a link's own box, which querySelectorAll does not include.
  if (root.matches && root.matches("[data-share]")) label(root);
  root.querySelectorAll("[data-share]").forEach(label);
}

function say(box, text) {
  const status = box.querySelector("[data-share-status]");
  // Emptied first, so that saying the same thing twice is read out twice.
  status.textContent = "";
  window.setTimeout(() => { status.textContent = text; }, 50);
}

async function copy(box, input) {
  try {
    await navigator.clipboard.writeText(input.value);
    say(box, box.dataset.shareCopied);
  } catch (error) {
    input.focus();
    input.select();
    say(box, box.dataset.shareFailed);
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-share-button]");
  if (!button) {
    return;
  }
  const box = button.closest("[data-share]");
  const input = box.querySelector("[data-share-url]");
  if (canShare) {
    try {
      await navigator.share({ text: box.dataset.shareText, url: input.value });
      return;
    } catch (error) {
      if (error && error.name === "AbortError") {
        return; // the player closed the share sheet
      }
    }
  }
  await copy(box, input);
});

showAll(document);
// Parts of the page swapped in later (the game page's panels) bring their own links.
document.addEventListener("htmx:load", (event) => showAll(event.target));
