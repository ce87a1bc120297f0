#pragma once

// `floe serve`'s HTTP side: a RestService (rest_service.h) on a TCP socket, HTTP/1.1 with
// keep-alive and a pool of worker threads (cpp-httplib, Debian's libcpp-httplib-dev). Every open
// connection holds a worker thread while it waits for its next request (at most
// kKeepAliveSeconds), so `threads` bounds the clients served at once; responses go out without
// Nagle's delay (TCP_NODELAY).
//
// With credentials set, every request but POST /v1/oauth/tokens needs `Authorization: Bearer
// <token>` with a token that endpoint issued for a client-credentials grant of one of the
// credentials (401 NotAuthorizedException without or with an unknown token, 419 when it
// expired). With a log stream, one line per request: method, path, status, milliseconds.
//
// Errors: kIO when the address cannot be bound. Stop() lets requests in flight finish.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "floe/catalog/rest/server/rest_service.h"

namespace floe::catalog::rest {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8181;  // 0: any free port (see RestServer::port())
  int threads = 64;
  // "client_id:client_secret" pairs that may obtain tokens; empty: no authentication.
  std::vector<std::string> credentials;
  int64_t token_lifetime_s = 3600;
  std::FILE* log = nullptr;  // request log; nullptr: none
};

// How long an idle connection is kept open, and how many requests it may carry.
inline constexpr int kKeepAliveSeconds = 5;
inline constexpr int kKeepAliveMaxRequests = 10000;

class RestServer {
 public:
  // Binds the socket and starts serving on a thread of its own.
  static Result<std::unique_ptr<RestServer>> Start(std::shared_ptr<const RestService> service,
                                                   ServerOptions options);
  ~RestServer();  // stops
  RestServer(const RestServer&) = delete;
  RestServer& operator=(const RestServer&) = delete;

  int port() const;
  // "http://host:port".
  std::string uri() const;
  void Stop();

 private:
  struct State;
  explicit RestServer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace floe::catalog::rest
