// The media bench's yardstick for Node itself: one file's single ranges sent the way our app sends a
// held-open file (`fs.read` at the range's offset into reused 1 MiB buffers, each given back from the write's
// callback), by `node:http` alone: no framework, no permission check, no headers beyond the range's. What it reaches
// against nginx on a machine is what any Node server reading the file before writing it can reach there.
// Usage: node bench/bare-file-server.mjs <file>; prints the port it listens on (127.0.0.1), then serves until killed.
import { createServer } from 'node:http';
import { fstatSync, openSync, read } from 'node:fs';
import { promisify } from 'node:util';

const readAt = promisify(read);
const bufferBytes = 1024 * 1024;
const fd = openSync(process.argv[2], 'r');
const size = fstatSync(fd).size;
const idle = [];

const server = createServer(async (request, response) => {
  const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range ? Math.min(Number(range[2]), size - 1) : -1;
  const length = end - start + 1;
  if (!range || length <= 0 || length > bufferBytes) {
    response.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    return;
  }
  const buffer = idle.pop() ?? Buffer.allocUnsafeSlow(bufferBytes);
  const bytes = buffer.subarray(0, length);
  await readAt(fd, bytes, 0, length, start);
  response.writeHead(206, {
    'content-type': 'video/mp4',
    'content-length': length,
    'content-range': `bytes ${start}-${end}/${size}`,
  });
  response.end(bytes, () => idle.push(buffer));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
