import path from 'node:path';
import type { Config } from '#server/config.ts';
import { createLocalStorage, type FileStorage } from './storage.ts';

/** The file store STORAGE names: DATA_DIR/uploads, or the S3_* bucket (the AWS SDK is loaded only then). */
export async function createConfiguredStorage(config: Config): Promise<FileStorage> {
  if (config.storage === 's3' && config.s3) {
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage(config.s3);
  }
  return createLocalStorage(path.join(config.dataDir, 'uploads'));
}
