// A minimal W3C WebDriver client over fetch: just the commands the desktop smoke test uses.

/** An error answered by the remote end, carrying its W3C error code. */
export class WebDriverError extends Error {
  constructor(command, status, value) {
    super(`${command} -> HTTP ${status}: ${value?.error ?? 'error'}: ${value?.message ?? JSON.stringify(value)}`);
    this.code = value?.error;
  }
}

/** How long one command may take; WebKitWebDriver can hang rather than fail (a stuck screenshot). */
const COMMAND_TIMEOUT_MS = 90_000;

async function send(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WebDriverError(`${method} ${path}`, response.status, { message: text.slice(0, 500) });
  }
  if (!response.ok) {
    throw new WebDriverError(`${method} ${path}`, response.status, parsed.value);
  }
  return parsed.value;
}

/** The W3C key under which a found element's reference is returned. */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';

/** One WebDriver session. */
export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  /** Creates a session with the given `alwaysMatch` capabilities. */
  static async create(base, alwaysMatch) {
    const value = await send(base, 'POST', '/session', { capabilities: { alwaysMatch } });
    return new Session(base, value.sessionId);
  }

  command(method, path, body) {
    return send(this.base, method, `/session/${this.id}${path}`, body);
  }

  /** References of all elements matching a CSS selector (possibly none). */
  async findAll(css) {
    const found = await this.command('POST', '/elements', { using: 'css selector', value: css });
    return found.map((element) => element[ELEMENT_KEY]);
  }

  /** Runs a synchronous script in the page and returns its result. */
  execute(script, args = []) {
    return this.command('POST', '/execute/sync', { script, args });
  }

  /** Clicks element `ref` as a person would (a user gesture, unlike a script's click()). */
  async click(ref) {
    await this.command('POST', `/element/${ref}/click`, {});
  }

  /** Sends later commands to the window `handle` (from `GET /window/handles`). */
  async switchToWindow(handle) {
    await this.command('POST', '/window', { handle });
  }

  /** Sends later commands into the frame element `ref` (from `findAll`). */
  async switchToFrame(ref) {
    await this.command('POST', '/frame', { id: { [ELEMENT_KEY]: ref } });
  }

  /** Sends later commands to the top-level page again. */
  async switchToTop() {
    await this.command('POST', '/frame', { id: null });
  }

  /** Runs an asynchronous script (it calls its last argument with the result) and returns that. */
  executeAsync(script, args = []) {
    return this.command('POST', '/execute/async', { script, args });
  }

  /** A PNG of the viewport. */
  async screenshot() {
    return Buffer.from(await this.command('GET', '/screenshot'), 'base64');
  }

  /** Ends the session (closes the app). */
  async delete() {
    await send(this.base, 'DELETE', `/session/${this.id}`);
  }
}

/** True once the remote end answers `/status` as ready. */
export async function isReady(base) {
  try {
    const value = await send(base, 'GET', '/status');
    return value?.ready !== false;
  } catch {
    return false;
  }
}
