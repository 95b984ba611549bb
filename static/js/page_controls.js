// Small controls of the lobby and game pages: copy buttons beside links, and forms that ask for
// confirmation first (Concede, Cancel). The question is the form's own `data-confirm` text.

document.addEventListener("click", async (event) => {
  const button = event.target.closest?.("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  const text = field.value ?? field.textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the clipboard API (an insecure origin): select the text for Ctrl+C.
    field.select?.();
    document.execCommand?.("copy");
  }
  button.dataset.copied = "true";
  const label = button.textContent;
  button.textContent = button.dataset.copiedLabel || label;
  setTimeout(() => {
    button.textContent = label;
    delete button.dataset.copied;
  }, 1500);
});

document.addEventListener("submit", (event) => {
  const form = event.target.closest?.("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
