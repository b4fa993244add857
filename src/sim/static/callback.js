// The consent popup's last page: tell the simulator window how linking went, then close.
const linked = document.body.dataset.linked === 'yes';
if (window.opener) {
  window.opener.postMessage({ type: 'holddesk-link', linked }, window.location.origin);
}
if (linked) setTimeout(() => window.close(), 600);
