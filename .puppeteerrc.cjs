// Conformly drives Debian's chromium (see src/scanner/chromium-path.ts); never download a browser.
module.exports = { skipDownload: true };
