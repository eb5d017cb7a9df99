// A loopback stand-in for Anthropic's Messages API (what heddle-fake-llm answers in the Rust
// tests, for browser suites that run the real `heddle serve`): every `POST /v1/messages`
// gets one text reply with the usage given, as a stream or as one JSON message.
import { once } from 'node:events';
import { createServer } from 'node:http';

/** Starts it; `baseUrl` is what ANTHROPIC_BASE_URL should be; `requests()` counts calls. */
export async function startFakeAnthropic({ text = 'Done.', inputTokens, outputTokens }) {
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/messages') {
        response.writeHead(404).end();
        return;
      }
      requests += 1;
      const asked = JSON.parse(body);
      const id = `msg_fake_${requests}`;
      const usage = { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      if (asked.stream !== true) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({ id, type: 'message', role: 'assistant', model: asked.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage }),
        );
        return;
      }
      const frame = (event, data) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.end(
        [
          frame('message_start', {
            type: 'message_start',
            message: { id, type: 'message', role: 'assistant', content: [], model: asked.model, stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
          }),
          frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
          frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
          frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
          frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }),
          frame('message_stop', { type: 'message_stop' }),
        ].join(''),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
