#pragma once

// An HTTP/1.1 proxy for fault tests, on a free loopback port, in front of a real server (moto):
// it forwards each request and relays the answer, except at requests the test picked, where it
// answers 503 SlowDown itself, drops the connection before forwarding, or forwards and then drops
// the connection before relaying the answer (the request took effect; its caller cannot know).
// One connection per request (it answers with Connection: close). Thread-safe.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace floe::testing {

class FaultProxy {
 public:
  enum class Fault { kSlowDown, kDropBefore, kDropAfter };

  // upstream: "http://127.0.0.1:PORT".
  explicit FaultProxy(std::string upstream);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // "http://127.0.0.1:PORT" of the proxy; empty when it could not listen.
  const std::string& endpoint() const { return endpoint_; }

  // Injects fault at the n-th request from now on (1-based), and clears earlier plans.
  void FailRequest(int n, Fault fault);
  // Requests seen since the last FailRequest or ResetCount.
  int requests() const { return requests_; }
  void ResetCount();
  // "METHOD /path" of each request since the last reset, in arrival order.
  std::vector<std::string> log() const;

 private:
  void AcceptLoop();
  void Serve(int fd);

  std::string upstream_host_;
  int upstream_port_ = 0;
  std::string endpoint_;
  int listener_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  mutable std::mutex mutex_;
  std::map<int, Fault> faults_;
  std::vector<std::string> log_;
  std::vector<std::thread> workers_;
  std::thread acceptor_;
};

}  // namespace floe::testing
