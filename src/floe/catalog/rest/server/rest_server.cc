#include "floe/catalog/rest/server/rest_server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/catalog/rest/server/oauth_tokens_internal.h"

namespace floe::catalog::rest {

struct RestServer::State {
  std::shared_ptr<const RestService> service;
  ServerOptions options;
  OAuthTokens tokens;
  httplib::Server http;
  int port = 0;
  std::thread thread;
  std::once_flag stopped;
  std::atomic<bool> finished = false;

  State(std::shared_ptr<const RestService> s, ServerOptions o)
      : service(std::move(s)),
        options(std::move(o)),
        tokens(options.credentials, options.token_lifetime_s) {}

  void Reply(httplib::Response& res, int status, const std::string& body) {
    res.status = status;
    if (!body.empty()) res.set_content(body, "application/json");
  }

  void ReplyError(httplib::Response& res, int status, std::string type, std::string message) {
    ErrorModel model{std::move(message), std::move(type), status};
    Reply(res, status, ToJson(model).Dump());
  }

  void Token(const httplib::Request& req, httplib::Response& res) {
    if (!tokens.enabled()) {
      ReplyError(res, 400, "BadRequestException",
                 "this server takes no tokens: it was started without --credential");
      return;
    }
    auto token = tokens.Grant(req.body);
    if (token) {
      Reply(res, 200, ToJson(*token).Dump());
      return;
    }
    // RFC 6749's error response, which OAuthError in the OpenAPI document describes.
    std::string_view message = token.error().message();
    std::string code(message.substr(0, message.find(':')));
    Json body = Json::MakeObject();
    body.Set("error", Json(code));
    body.Set("error_description", Json(message));
    Reply(res, token.error().kind() == ErrorKind::kNotFound ? 401 : 400, body.Dump());
  }

  void Serve(const httplib::Request& req, httplib::Response& res) {
    auto started = std::chrono::steady_clock::now();
    Dispatch(req, res);
    if (options.log) {
      std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
      fmt::print(options.log, "floe serve: {} {} {} {:.1f} ms\n", req.method, req.path, res.status,
                 took.count());
      std::fflush(options.log);
    }
  }

  void Dispatch(const httplib::Request& req, httplib::Response& res) {
    if (req.path == "/v1/oauth/tokens" && req.method == "POST") {
      Token(req, res);
      return;
    }
    if (tokens.enabled()) {
      int refused = tokens.Check(req.get_header_value("Authorization"));
      if (refused == 419) {
        ReplyError(res, 419, "AuthenticationTimeoutException", "the token has expired");
        return;
      }
      if (refused != 0) {
        ReplyError(res, 401, "NotAuthorizedException", "a valid bearer token is required");
        return;
      }
    }
    ServiceRequest request;
    request.method = req.method;
    request.path = req.path;
    for (const auto& [key, value] : req.params) request.query.emplace(key, value);
    request.body = req.body;
    request.if_none_match = req.get_header_value("If-None-Match");
    ServiceResponse response = service->Handle(request);
    if (!response.etag.empty()) res.set_header("ETag", response.etag);
    Reply(res, response.status, req.method == "HEAD" ? "" : response.body);
  }
};

RestServer::RestServer(std::unique_ptr<State> state) : state_(std::move(state)) {}

RestServer::~RestServer() { Stop(); }

Result<std::unique_ptr<RestServer>> RestServer::Start(std::shared_ptr<const RestService> service,
                                                      ServerOptions options) {
  auto state = std::make_unique<State>(std::move(service), std::move(options));
  State* s = state.get();
  int threads = std::max(1, s->options.threads);
  s->http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // Without TCP_NODELAY a response's body waits for the ACK of its headers, which a client
  // delays by up to 40 ms; cpp-httplib's default of 5 requests a connection makes clients
  // reconnect all the time.
  s->http.set_tcp_nodelay(true);
  s->http.set_keep_alive_max_count(kKeepAliveMaxRequests);
  s->http.set_keep_alive_timeout(kKeepAliveSeconds);
  auto handler = [s](const httplib::Request& req, httplib::Response& res) { s->Serve(req, res); };
  s->http.Get(".*", handler);
  s->http.Post(".*", handler);
  s->http.Delete(".*", handler);
  s->http.Put(".*", handler);
  if (s->options.port == 0) {
    s->port = s->http.bind_to_any_port(s->options.host);
    if (s->port < 0) return IOError("floe serve: cannot bind {}", s->options.host);
  } else {
    if (!s->http.bind_to_port(s->options.host, s->options.port)) {
      return IOError("floe serve: cannot bind {}:{} (is the port in use?)", s->options.host,
                     s->options.port);
    }
    s->port = s->options.port;
  }
  s->thread = std::thread([s] {
    s->http.listen_after_bind();
    s->finished = true;
  });
  return std::unique_ptr<RestServer>(new RestServer(std::move(state)));
}

int RestServer::port() const { return state_->port; }

std::string RestServer::uri() const {
  return fmt::format("http://{}:{}", state_->options.host, state_->port);
}

void RestServer::Stop() {
  std::call_once(state_->stopped, [this] {
    // stop() does nothing until the accept loop runs, so wait for it to start (or end).
    while (!state_->http.is_running() && !state_->finished) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    state_->http.stop();
    if (state_->thread.joinable()) state_->thread.join();
  });
}

}  // namespace floe::catalog::rest
