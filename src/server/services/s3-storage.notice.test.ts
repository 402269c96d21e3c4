import { expect, it } from 'vitest';
import { createS3Storage, type S3Settings } from './s3-storage.ts';

it("prints none of the AWS SDK's nine-line Node 22 notice when a bucket store starts", async () => {
  delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const warnings: string[] = [];
  const listener = (warning: Error) => void warnings.push(warning.message);
  process.on('warning', listener);
  try {
    const settings = {
      endpoint: 'http://127.0.0.1:9',
      bucket: 'cxvet',
      region: 'us-east-1',
      accessKeyId: 'clave',
      secretAccessKey: 'secreto',
      forcePathStyle: true,
      signedUrlSeconds: 300,
    } as S3Settings;
    // the SDK warns when it first sends a request
    await createS3Storage(settings)
      .stat('nada')
      .catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('warning', listener);
  }
  expect(warnings.filter((message) => message.includes('AWS SDK'))).toEqual([]);
});
