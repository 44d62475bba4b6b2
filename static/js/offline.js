// The offline page stands where a page could not be loaded: once the network is back,
// that page is asked for again, without the player having to tap "Try again".
addEventListener("online", () => location.reload());
