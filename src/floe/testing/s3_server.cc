#include "floe/testing/s3_server.h"

#include <arpa/inet.h>
#include <fmt/core.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace floe::testing {
namespace {

// A port nothing listens on now (the kernel's pick for port 0).
int FreeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  ::close(fd);
  return port;
}

bool Accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  ::close(fd);
  return ok;
}

bool MotoImportable() {
  return std::system("python3 -c 'import moto.server' >/dev/null 2>&1") == 0;
}

// moto's own server, with one change: moto checks a conditional write (If-None-Match, If-Match)
// and then stores the object as two steps, so two concurrent `If-None-Match: *` PUTs of one key
// can both succeed, where S3 lets exactly one win. Conditional writes are made one at a time here;
// everything else stays concurrent.
constexpr const char* kMotoLauncher = R"(
import os, sys, threading
from werkzeug.serving import run_simple
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

host, port = sys.argv[1], int(sys.argv[2])
os.environ.setdefault("MOTO_PORT", str(port))
moto_app = DomainDispatcherApplication(create_backend_app)
conditional_writes = threading.Lock()

def app(environ, start_response):
    conditional = environ.get("REQUEST_METHOD") in ("PUT", "POST") and (
        "HTTP_IF_NONE_MATCH" in environ or "HTTP_IF_MATCH" in environ)
    if not conditional:
        return moto_app(environ, start_response)
    with conditional_writes:
        return list(moto_app(environ, start_response))

run_simple(host, port, app, threaded=True)
)";

}  // namespace

const S3Server& S3Server::Get() {
  static S3Server server(false);
  return server;
}

const S3Server& S3Server::Authenticating() {
  static S3Server server(true);
  return server;
}

S3Server::S3Server(bool authenticating) {
  if (!MotoImportable()) {
    reason_ = "Python moto (moto_server) is not installed on this machine";
    return;
  }
  int port = FreeLoopbackPort();
  if (port < 0) {
    reason_ = "no free loopback port";
    return;
  }
  std::string port_text = std::to_string(port);
  pid_t pid = ::fork();
  if (pid == 0) {
    // Its own process group, so that stopping it stops the interpreter's children too.
    ::setpgid(0, 0);
    if (authenticating) ::setenv("INITIAL_NO_AUTH_ACTION_COUNT", "3", 1);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    ::execlp("python3", "python3", "-c", kMotoLauncher, "127.0.0.1", port_text.c_str(), nullptr);
    ::_exit(127);
  }
  if (pid < 0) {
    reason_ = "fork failed";
    return;
  }
  pid_ = pid;
  // Bounded: moto answers within seconds, within a minute on a machine busy with builds, or is
  // taken as broken.
  for (int i = 0; i < 1200; ++i) {
    if (Accepts(port)) {
      endpoint_ = "http://127.0.0.1:" + port_text;
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      reason_ = "moto_server exited at start";
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  reason_ = "moto_server did not answer within 60 s";
}

S3Server::~S3Server() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGTERM);
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
}

}  // namespace floe::testing
