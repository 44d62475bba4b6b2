// Small progressive enhancements; the site works without JavaScript.
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) {
    el.form.requestSubmit();
  }
});
