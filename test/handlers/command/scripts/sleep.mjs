// Sleeps until killed.
setInterval(() => {}, 1000);
