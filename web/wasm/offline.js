// offline.js: the static board as an app a phone installs and opens with
// no network: registers sw.js (which keeps every file of the folder) once
// the page has loaded. Where there is no service worker (a page served
// over plain HTTP from another machine) the board works as long as the
// server does.
if ('serviceWorker' in navigator) {
  addEventListener('load', () => {
    navigator.serviceWorker.register('sw.js').catch((err) => console.warn(`offline use unavailable: ${err.message}`));
  });
}
