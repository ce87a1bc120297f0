#pragma once

// One HTTP/1.1 client for everything floe says over HTTP (S3 now; the REST and Glue catalogs
// later), on libcurl. It keeps a pool of connections alive between requests (at most
// max_connections at once; a caller waits for a free one), bounds connecting and every pause in
// a transfer by timeouts, and retries a request whose outcome is a transient failure: a refused
// or reset connection, a timeout, a 5xx, or 429 Too Many Requests. Retries wait with exponential
// backoff and full jitter, and happen only for requests marked idempotent, since a request that
// may have been performed must not be performed twice unless doing so changes nothing; or for an
// answer the request's `throttled` says was a refusal before anything was done.
//
// Errors: kIO for a transport failure once the attempts are used up (the message names the method,
// the URL without its query and curl's reason). An HTTP status, even 4xx/5xx, is a Response: the
// caller maps it, because only the caller knows what it means. Thread-safe.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::io::http {

struct Header {
  std::string name;
  std::string value;
};

struct Response;

struct Request {
  std::string method = "GET";
  std::string url;  // already percent-encoded
  std::vector<Header> headers;
  std::span<const std::byte> body;  // borrowed for the duration of Send
  // Whether sending it twice has the effect of sending it once (GET, HEAD, PUT of whole objects,
  // DELETE); only such requests are retried.
  bool idempotent = true;
  // Whether an answer is the service refusing the request unperformed because of load (Glue's
  // ThrottlingException comes as HTTP 400): such an answer is retried, idempotent or not.
  std::function<bool(const Response&)> throttled;
  // When set, the body of a 2xx response is written here instead of into Response::body (an
  // error's body still goes there); a body longer than the span is a kIO error.
  std::span<std::byte> body_into;
};

struct Response {
  long status = 0;
  std::vector<Header> headers;  // names lowercased
  std::string body;
  size_t body_into_size = 0;  // bytes written to Request::body_into
  int attempts = 0;           // how many times the request was sent
  // Earlier attempts that got no answer (a dropped connection, a timeout): each may or may not
  // have taken effect. An attempt answered with a 5xx or 429 did not.
  int unanswered_attempts = 0;

  // The value of a header (name in lowercase), or "" when absent.
  std::string_view header(std::string_view name) const;
};

// Whether a status is worth retrying for an idempotent request: 5xx and 429.
bool IsRetryableStatus(long status);

class Client {
 public:
  struct Options {
    int64_t connect_timeout_ms = 10'000;
    // The longest a transfer may make no progress before it counts as timed out.
    int64_t socket_timeout_ms = 60'000;
    int max_connections = 32;
    int max_attempts = 5;  // including the first
    int64_t backoff_base_ms = 50;
    int64_t backoff_max_ms = 5'000;
  };

  explicit Client(Options options);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const Options& options() const { return options_; }

  // Called before every attempt with the request as it will be sent, e.g. to sign it (a signature
  // carries the time, so each attempt is signed afresh).
  using Prepare = std::function<Status(Request&)>;

  // Sends request and returns the final response: the first one that is not retryable, or the
  // last one when the attempts run out.
  Result<Response> Send(const Request& request, const Prepare& prepare = {});

 private:
  struct Pool;
  Options options_;
  std::unique_ptr<Pool> pool_;
};

}  // namespace floe::io::http
