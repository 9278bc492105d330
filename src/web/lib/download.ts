/** Hands a file made or fetched in the browser to the person as a download. */
export function saveFile(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the address is no longer needed after this turn.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

export function saveText(text: string, filename: string, type: string): void {
  saveFile(new Blob([text], { type }), filename);
}
