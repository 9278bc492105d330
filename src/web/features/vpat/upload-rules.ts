/** Spec §9: uploads are at most 10 MB. */
export const maxUploadBytes = 10 * 1024 * 1024;

/** Spec §5: a JSON file under 10 MB, else the spec's title and message. */
export function uploadProblem(file: {
  name: string;
  size: number;
}): { title: string; description: string } | undefined {
  if (!file.name.toLowerCase().endsWith('.json')) {
    return {
      title: 'Invalid file type',
      description: 'Please select a JSON file containing OpenACR data.',
    };
  }
  if (file.size >= maxUploadBytes) {
    return { title: 'File too large', description: 'File size must be less than 10MB.' };
  }
  return undefined;
}

/** Size in KB with one decimal (spec §2). */
export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
