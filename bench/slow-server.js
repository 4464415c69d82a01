// An OpenAI-compatible chat server on 127.0.0.1 that answers every request a fixed delay after
// it has been read. Prints its URL on stdout, then serves until killed. Used by
// runner-overhead.js. GET /stats returns the delays it actually achieved.
//
// Node's timers fire late (about 1 ms on a 20 ms timer here, more under load), which would
// make the server's latency L + 1 ms and cap any client at L / (L + 1) of the ideal C / L. The
// server therefore subtracts the lateness it has seen so far (a running mean, never below 0)
// and reports the delays it achieved, so the bench can print them beside the ratios.
import { createServer } from 'node:http';

const delayMs = Number(process.argv[2] ?? 20);
const body = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"answer": "x"}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
});
let lateness = 0;
const achieved = { count: 0, sum: 0, max: 0 };
const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ ...achieved, mean: achieved.sum / Math.max(1, achieved.count) }));
    achieved.count = achieved.sum = achieved.max = 0;
    return;
  }
  request.resume();
  request.on('end', () => {
    const read = performance.now();
    const wait = Math.max(0, delayMs - lateness);
    setTimeout(() => {
      const fired = performance.now();
      lateness += (fired - read - wait - lateness) * 0.05;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
      const delay = performance.now() - read;
      achieved.count++;
      achieved.sum += delay;
      achieved.max = Math.max(achieved.max, delay);
    }, wait);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
