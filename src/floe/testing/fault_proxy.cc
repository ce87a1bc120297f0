#include "floe/testing/fault_proxy.h"

#include <arpa/inet.h>
#include <fmt/core.h>
#include <netinet/in.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>

namespace floe::testing {
namespace {

bool Readable(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, timeout_ms) > 0;
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// One whole request (head and Content-Length body) from fd, or "" when the client went away.
std::string ReadRequest(int fd, const std::atomic<bool>& stopping) {
  std::string buffer;
  size_t need = std::string::npos;
  while (!stopping) {
    if (need == std::string::npos) {
      size_t end = buffer.find("\r\n\r\n");
      if (end != std::string::npos) {
        size_t length = 0;
        std::string head = buffer.substr(0, end);
        for (std::string_view name : {"\r\nContent-Length:", "\r\ncontent-length:"}) {
          if (size_t at = head.find(name); at != std::string::npos) {
            length = std::stoul(head.substr(at + name.size()));
          }
        }
        need = end + 4 + length;
      }
    }
    if (need != std::string::npos && buffer.size() >= need) return buffer.substr(0, need);
    if (!Readable(fd, 100)) continue;
    char chunk[65536];
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n <= 0) return "";
    buffer.append(chunk, static_cast<size_t>(n));
  }
  return "";
}

int Connect(const std::string& host, int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, host.c_str(), &address.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The request with its Connection header replaced by "close", so the answer ends at EOF.
std::string WithConnectionClose(const std::string& request) {
  size_t end = request.find("\r\n\r\n");
  std::string head = request.substr(0, end);
  std::string out;
  size_t at = 0;
  while (at < head.size()) {
    size_t line_end = head.find("\r\n", at);
    if (line_end == std::string::npos) line_end = head.size();
    std::string line = head.substr(at, line_end - at);
    if (strncasecmp(line.c_str(), "connection:", 11) != 0) out += line + "\r\n";
    at = line_end + 2;
  }
  return out + "Connection: close\r\n\r\n" + request.substr(end + 4);
}

}  // namespace

FaultProxy::FaultProxy(std::string upstream) {
  std::string rest = upstream.substr(upstream.find("://") + 3);
  size_t colon = rest.find(':');
  upstream_host_ = rest.substr(0, colon);
  upstream_port_ = std::stoi(rest.substr(colon + 1));
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(listener_, 64) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return;
  }
  endpoint_ = fmt::format("http://127.0.0.1:{}", ntohs(address.sin_port));
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

FaultProxy::~FaultProxy() {
  stopping_ = true;
  if (acceptor_.joinable()) acceptor_.join();
  for (std::thread& worker : workers_) worker.join();
  ::close(listener_);
}

void FaultProxy::FailRequest(int n, Fault fault) {
  std::lock_guard lock(mutex_);
  faults_.clear();
  faults_[n] = fault;
  requests_ = 0;
  log_.clear();
}

void FaultProxy::ResetCount() {
  std::lock_guard lock(mutex_);
  faults_.clear();
  requests_ = 0;
  log_.clear();
}

std::vector<std::string> FaultProxy::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

void FaultProxy::AcceptLoop() {
  while (!stopping_) {
    if (!Readable(listener_, 50)) continue;
    int fd = ::accept(listener_, nullptr, nullptr);
    if (fd < 0) continue;
    std::lock_guard lock(mutex_);
    workers_.emplace_back([this, fd] {
      Serve(fd);
      ::close(fd);
    });
  }
}

void FaultProxy::Serve(int fd) {
  std::string request = ReadRequest(fd, stopping_);
  if (request.empty()) return;
  std::optional<Fault> fault;
  {
    std::lock_guard lock(mutex_);
    int n = ++requests_;
    log_.push_back(request.substr(0, request.find(" HTTP/")));
    if (auto it = faults_.find(n); it != faults_.end()) fault = it->second;
  }
  if (fault == Fault::kDropBefore) return;
  if (fault == Fault::kSlowDown) {
    std::string body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>Please "
        "reduce your request rate.</Message></Error>";
    WriteAll(fd, fmt::format("HTTP/1.1 503 Slow Down\r\nContent-Length: {}\r\nConnection: "
                             "close\r\n\r\n{}",
                             body.size(), body));
    return;
  }
  int upstream = Connect(upstream_host_, upstream_port_);
  if (upstream < 0) return;
  std::string response;
  if (WriteAll(upstream, WithConnectionClose(request))) {
    while (!stopping_) {
      if (!Readable(upstream, 100)) continue;
      char chunk[65536];
      ssize_t n = ::read(upstream, chunk, sizeof(chunk));
      if (n <= 0) break;
      response.append(chunk, static_cast<size_t>(n));
    }
  }
  ::close(upstream);
  if (fault == Fault::kDropAfter) return;
  WriteAll(fd, response);
}

}  // namespace floe::testing
