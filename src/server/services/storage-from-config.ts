import path from 'node:path';
import type { Config } from '#server/config.ts';
import { createLocalStorage, type FileStorage } from './storage.ts';
import { createS3Storage } from './s3-storage.ts';

/** The file store STORAGE names: DATA_DIR/uploads, or the S3_* bucket. */
export function createConfiguredStorage(config: Config): FileStorage {
  if (config.storage === 's3' && config.s3) return createS3Storage(config.s3);
  return createLocalStorage(path.join(config.dataDir, 'uploads'));
}
