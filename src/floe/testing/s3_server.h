#pragma once

// An S3 API server for tests: Python moto (`moto_server`, from the machine image, not Debian), on
// a free loopback port, started at the first use in a test binary and stopped when it exits.
// Conditional writes are served one at a time, as atomically as S3 serves them (moto alone lets
// two racing `If-None-Match: *` PUTs both win).
// Where moto is missing, tests skip with reason(). Any access key and secret are accepted.

#include <string>

namespace floe::testing {

class S3Server {
 public:
  // The server of this process; started on first call.
  static const S3Server& Get();
  // A second server that checks signatures (moto's INITIAL_NO_AUTH_ACTION_COUNT): its first
  // three requests go unchecked, for the test to create an IAM user, its access key and a policy
  // allowing everything; every later request must be signed with that key.
  static const S3Server& Authenticating();

  bool running() const { return !endpoint_.empty(); }
  // "http://127.0.0.1:PORT".
  const std::string& endpoint() const { return endpoint_; }
  // Why the server is not running.
  const std::string& reason() const { return reason_; }

  ~S3Server();

 private:
  explicit S3Server(bool authenticating);
  std::string endpoint_;
  std::string reason_;
  int pid_ = -1;
};

}  // namespace floe::testing

// Skips the test when no S3 server can run here.
#define FLOE_REQUIRE_S3_SERVER()                                                     \
  do {                                                                               \
    if (!::floe::testing::S3Server::Get().running()) {                               \
      GTEST_SKIP() << "no S3 server: " << ::floe::testing::S3Server::Get().reason(); \
    }                                                                                \
  } while (false)
