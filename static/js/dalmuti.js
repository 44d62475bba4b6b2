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
