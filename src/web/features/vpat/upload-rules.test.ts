import { describe, expect, it } from 'vitest';
import { kilobytes, maxUploadBytes, uploadProblem } from './upload-rules';

describe('OpenACR uploads', () => {
  it('takes JSON files under 10 MB only', () => {
    expect(uploadProblem({ name: 'acr.JSON', size: 2048 })).toBeUndefined();
    expect(uploadProblem({ name: 'acr.yaml', size: 10 })?.title).toBe('Invalid file type');
    expect(uploadProblem({ name: 'acr.json', size: maxUploadBytes })?.description).toBe(
      'File size must be less than 10MB.',
    );
  });

  it('shows sizes in KB with one decimal', () => {
    expect(kilobytes(1536)).toBe('1.5 KB');
    expect(kilobytes(0)).toBe('0.0 KB');
  });
});
