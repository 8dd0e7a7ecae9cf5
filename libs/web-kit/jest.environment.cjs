// jsdom plus Node's fetch API. jsdom has no fetch, and RTK Query and react-router build `Request`s with
// an AbortSignal, which must come from the same implementation as `Request`: so fetch, Request,
// Response, Headers and AbortController/AbortSignal all come from Node. Relative URLs ('/api/...')
// resolve against the jsdom page, as they would in a browser. jsdom cannot scroll: scrollTo (called by
// react-router's ScrollRestoration) does nothing. Used by web-kit's and the shell's tests.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const page = this.global;
    class PageRequest extends Request {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, page.location.href).href : input, init);
      }
    }
    Object.assign(page, {
      fetch,
      Request: PageRequest,
      Response,
      Headers,
      AbortController,
      AbortSignal,
      TextEncoder,
      TextDecoder,
      ReadableStream,
      scrollTo: () => {},
    });
  }
}

module.exports = JsdomWithFetchEnvironment;
