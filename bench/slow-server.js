// An OpenAI-compatible chat server on 127.0.0.1 that answers every request after a fixed
// delay. Prints its URL on stdout, then serves until killed. Used by runner-overhead.js.
import { createServer } from 'node:http';

const delayMs = Number(process.argv[2] ?? 20);
const body = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: '{"answer": "x"}' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
});
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    }, delayMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
