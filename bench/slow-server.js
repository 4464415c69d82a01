// An OpenAI-compatible chat server on 127.0.0.1 that answers every request a fixed delay after
// it has been read. Prints its URL on stdout, then serves until killed. Used by
// runner-overhead.js and runner-endpoints.js. GET /stats returns the delays it actually achieved.
// Usage: node bench/slow-server.js <delayMs> [capacity: requests served at once, default unlimited]
//
// Node's timers fire late (about 1 ms on a 20 ms timer here, more under load), which would
// make the server's latency L + 1 ms and cap any client at L / (L + 1) of the ideal C / L. The
// server therefore subtracts the lateness it has seen so far (a running mean, never below 0)
// and reports the delays it achieved, so the bench can print them beside the ratios, with the
// mean gap between an answer written and the next request read on the same connection (the
// client's turnaround: what a runner adds to each request's cycle).
import { createServer } from 'node:http';

const delayMs = Number(process.argv[2] ?? 20);
const body = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"answer": "x"}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
});
// At most this many requests are served at once (a replica's batch, argv[3]); the rest wait.
const capacity = Number(process.argv[3] ?? Number.POSITIVE_INFINITY);
let serving = 0;
const waiting = [];
let lateness = 0;
const achieved = { count: 0, sum: 0, max: 0, gaps: 0, gapSum: 0 };
/** When each connection's last answer was written: the gap to its next request is the client's turnaround. */
const answeredAt = new WeakMap();

/** Runs `start` now if the server has room, else when a request it serves is answered. */
function admit(start) {
  if (serving < capacity) {
    serving++;
    start();
  } else waiting.push(start);
}

function release() {
  const next = waiting.shift();
  if (next) next();
  else serving--;
}

/** Answers `delayMs` after the request is admitted (queueing for capacity is not part of it). */
function serve(response) {
  const read = performance.now();
  const wait = Math.max(0, delayMs - lateness);
  setTimeout(() => {
    const fired = performance.now();
    lateness += (fired - read - wait - lateness) * 0.05;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
    answeredAt.set(response.socket, performance.now());
    release();
    const delay = performance.now() - read;
    achieved.count++;
    achieved.sum += delay;
    achieved.max = Math.max(achieved.max, delay);
  }, wait);
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        ...achieved,
        mean: achieved.sum / Math.max(1, achieved.count),
        gapMean: achieved.gapSum / Math.max(1, achieved.gaps),
      }),
    );
    achieved.count = achieved.sum = achieved.max = achieved.gaps = achieved.gapSum = 0;
    return;
  }
  const last = answeredAt.get(request.socket);
  if (last !== undefined) {
    achieved.gaps++;
    achieved.gapSum += performance.now() - last;
  }
  request.resume();
  request.on('end', () => admit(() => serve(response)));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
