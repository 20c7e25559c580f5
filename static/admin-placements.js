// /admin/placements: "Copy stats link" buttons and confirmation of destructive forms.
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  const text = button.getAttribute("data-copy") || "";
  navigator.clipboard?.writeText(text).then(
    () => (button.textContent = "Copied"),
    () => window.prompt("Copy the statistics link", text),
  );
});
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
