// The HTTP client against a scripted HTTP/1.1 server of the test's own on loopback: answers,
// 503s, dropped connections and stalls at chosen requests, to check retries, backoff bounds,
// keep-alive and timeouts.

#include "floe/io/http/http_client.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <thread>

#include "floe/testing/testing.h"

namespace floe::io::http {
namespace {

// Serves each connection on its own thread; each request takes the next action of the script.
class ScriptedServer {
 public:
  struct Action {
    int status = 200;
    std::string body = "ok";
    bool drop = false;  // close the connection instead of answering
    int delay_ms = 0;   // wait before answering
  };

  explicit ScriptedServer(std::vector<Action> script) : script_(script.begin(), script.end()) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listener_, 16);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { Run(); });
  }

  ~ScriptedServer() {
    stopping_ = true;
    thread_.join();
    ::close(listener_);
  }

  std::string url(std::string_view path) const {
    return fmt::format("http://127.0.0.1:{}{}", port_, path);
  }
  int requests() const { return requests_; }
  int connections() const { return connections_; }
  std::string last_request() {
    std::lock_guard lock(mutex_);
    return last_request_;
  }

 private:
  bool Readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 50) > 0;
  }

  void Run() {
    std::vector<std::thread> connections;
    while (!stopping_) {
      if (!Readable(listener_)) continue;
      int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) continue;
      ++connections_;
      connections.emplace_back([this, fd] {
        Serve(fd);
        ::close(fd);
      });
    }
    for (std::thread& connection : connections) connection.join();
  }

  // Answers requests on fd until the client closes it, an action drops it, or the test ends.
  void Serve(int fd) {
    std::string buffer;
    while (!stopping_) {
      size_t end = buffer.find("\r\n\r\n");
      if (end == std::string::npos) {
        if (!Readable(fd)) continue;
        char chunk[65536];
        ssize_t n = ::read(fd, chunk, sizeof(chunk));
        if (n <= 0) return;
        buffer.append(chunk, static_cast<size_t>(n));
        continue;
      }
      size_t body_length = 0;
      std::string head = buffer.substr(0, end);
      for (std::string_view name : {"Content-Length: ", "content-length: "}) {
        if (size_t at = head.find(name); at != std::string::npos) {
          body_length = std::stoul(head.substr(at + name.size()));
        }
      }
      while (buffer.size() < end + 4 + body_length) {
        if (stopping_) return;
        if (!Readable(fd)) continue;
        char chunk[65536];
        ssize_t n = ::read(fd, chunk, sizeof(chunk));
        if (n <= 0) return;
        buffer.append(chunk, static_cast<size_t>(n));
      }
      {
        std::lock_guard lock(mutex_);
        last_request_ = buffer.substr(0, end + 4 + body_length);
      }
      buffer.erase(0, end + 4 + body_length);
      ++requests_;
      Action action;
      {
        std::lock_guard lock(mutex_);
        if (!script_.empty()) {
          action = script_.front();
          script_.pop_front();
        }
      }
      if (action.drop) return;
      if (action.delay_ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(action.delay_ms));
      std::string response = fmt::format("HTTP/1.1 {} Scripted\r\nContent-Length: {}\r\n\r\n{}",
                                         action.status, action.body.size(), action.body);
      if (::write(fd, response.data(), response.size()) < 0) return;
    }
  }

  std::mutex mutex_;
  std::deque<Action> script_;
  std::string last_request_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

Client::Options Fast() {
  Client::Options options;
  options.backoff_base_ms = 1;
  options.backoff_max_ms = 5;
  options.max_attempts = 4;
  return options;
}

TEST(HttpClientTest, SendsAndKeepsTheConnectionAlive) {
  ScriptedServer server({{200, "one"}, {201, "two"}, {404, "three"}});
  Client client(Fast());
  for (std::string_view expected : {"one", "two", "three"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(Response response, client.Send(Request{.url = server.url("/a")}));
    EXPECT_EQ(response.body, expected);
    EXPECT_EQ(response.attempts, 1);
  }
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(server.connections(), 1);
}

TEST(HttpClientTest, PutSendsTheBodyAndHeaders) {
  ScriptedServer server({{200, ""}});
  Client client(Fast());
  std::string body = "payload bytes";
  Request request{.method = "PUT",
                  .url = server.url("/bucket/key"),
                  .headers = {{"x-amz-meta-a", "1"}},
                  .body = std::as_bytes(std::span(body))};
  FLOE_ASSERT_OK_AND_ASSIGN(Response response, client.Send(request));
  EXPECT_EQ(response.status, 200);
  std::string sent = server.last_request();
  EXPECT_TRUE(sent.starts_with("PUT /bucket/key HTTP/1.1\r\n")) << sent;
  EXPECT_NE(sent.find("x-amz-meta-a: 1\r\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("Content-Length: 13\r\n"), std::string::npos) << sent;
  EXPECT_TRUE(sent.ends_with("\r\n\r\npayload bytes")) << sent;
  EXPECT_EQ(sent.find("Expect:"), std::string::npos) << sent;
}

TEST(HttpClientTest, RetriesIdempotentRequestsOn5xx429AndDrops) {
  ScriptedServer server({{503, "SlowDown"}, {.drop = true}, {429, "busy"}, {200, "finally"}});
  Client client(Fast());
  int prepared = 0;
  FLOE_ASSERT_OK_AND_ASSIGN(Response response,
                            client.Send(Request{.url = server.url("/x")}, [&](Request& r) {
                              ++prepared;
                              r.headers.push_back({"x-attempt", std::to_string(prepared)});
                              return Ok();
                            }));
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.body, "finally");
  EXPECT_EQ(server.requests(), 4);
  // curl itself resends once a request whose reused connection died unanswered, so the drop may
  // cost no attempt of ours.
  EXPECT_GE(response.attempts, 3);
  EXPECT_LE(response.attempts, 4);
  // Each attempt is prepared (signed) afresh, from the original request.
  EXPECT_EQ(prepared, response.attempts);
  std::string last = server.last_request();
  EXPECT_NE(last.find(fmt::format("x-attempt: {}\r\n", prepared)), std::string::npos) << last;
  EXPECT_EQ(last.find(fmt::format("x-attempt: {}\r\n", prepared - 1)), std::string::npos) << last;
}

TEST(HttpClientTest, GivesUpAfterMaxAttemptsWithTheLastAnswer) {
  ScriptedServer server({{500, "a"}, {502, "b"}, {503, "c"}, {504, "d"}, {200, "late"}});
  Client client(Fast());
  FLOE_ASSERT_OK_AND_ASSIGN(Response response, client.Send(Request{.url = server.url("/x")}));
  EXPECT_EQ(response.status, 504);
  EXPECT_EQ(response.attempts, 4);
  EXPECT_EQ(server.requests(), 4);
}

TEST(HttpClientTest, NeverRetriesANonIdempotentRequest) {
  ScriptedServer server({{503, "no"}, {200, "yes"}});
  Client client(Fast());
  FLOE_ASSERT_OK_AND_ASSIGN(
      Response response,
      client.Send(Request{.method = "POST", .url = server.url("/x"), .idempotent = false}));
  EXPECT_EQ(response.status, 503);
  EXPECT_EQ(server.requests(), 1);

  ScriptedServer dropping({{.drop = true}, {200, "yes"}});
  auto dropped =
      client.Send(Request{.method = "POST", .url = dropping.url("/x"), .idempotent = false});
  ASSERT_FALSE(dropped.has_value());
  EXPECT_EQ(dropped.error().kind(), ErrorKind::kIO);
  EXPECT_NE(dropped.error().message().find("POST http://127.0.0.1:"), std::string::npos)
      << dropped.error().message();
  EXPECT_EQ(dropping.requests(), 1);
}

TEST(HttpClientTest, ARefusedConnectionIsAnErrorNamingTheUrlWithoutItsQuery) {
  int port;
  {
    ScriptedServer closed({});
    port = std::stoi(closed.url("").substr(std::string("http://127.0.0.1:").size()));
  }
  Client client(Fast());
  auto refused = client.Send(
      Request{.url = fmt::format("http://127.0.0.1:{}/b/k?X-Amz-Signature=secret", port)});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind(), ErrorKind::kIO);
  EXPECT_NE(refused.error().message().find("(after 4 attempts)"), std::string::npos)
      << refused.error().message();
  EXPECT_EQ(refused.error().message().find("secret"), std::string::npos);
}

TEST(HttpClientTest, AStalledAnswerTimesOutAndIsRetried) {
  ScriptedServer server({{.delay_ms = 2500}, {200, "quick"}});
  Client::Options options = Fast();
  options.socket_timeout_ms = 1000;
  Client client(options);
  // Without the timeout the first attempt would get the stalled 200 "ok".
  FLOE_ASSERT_OK_AND_ASSIGN(Response response, client.Send(Request{.url = server.url("/x")}));
  EXPECT_EQ(response.body, "quick");
  EXPECT_EQ(response.attempts, 2);
}

TEST(HttpClientTest, BodyIntoACallersBuffer) {
  ScriptedServer server({{206, "0123456789"}, {200, "too long for it"}});
  Client client(Fast());
  std::string buffer(10, '\0');
  Request request{.url = server.url("/x")};
  request.body_into = std::as_writable_bytes(std::span(buffer));
  FLOE_ASSERT_OK_AND_ASSIGN(Response response, client.Send(request));
  EXPECT_EQ(response.body_into_size, 10u);
  EXPECT_EQ(buffer, "0123456789");
  EXPECT_TRUE(response.body.empty());
  auto overflow = client.Send(request);
  ASSERT_FALSE(overflow.has_value());
  EXPECT_NE(overflow.error().message().find("longer than the 10 bytes"), std::string::npos)
      << overflow.error().message();
}

TEST(HttpClientTest, RetryableStatuses) {
  EXPECT_TRUE(IsRetryableStatus(500));
  EXPECT_TRUE(IsRetryableStatus(503));
  EXPECT_TRUE(IsRetryableStatus(429));
  EXPECT_FALSE(IsRetryableStatus(404));
  EXPECT_FALSE(IsRetryableStatus(412));
  EXPECT_FALSE(IsRetryableStatus(200));
}

}  // namespace
}  // namespace floe::io::http
