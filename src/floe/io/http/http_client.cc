#include "floe/io/http/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>

#include "floe/util/strings.h"

namespace floe::io::http {
namespace {

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// What the transfer callbacks write into.
struct Transfer {
  CURL* curl = nullptr;
  Response* response = nullptr;
  std::span<std::byte> into;
  bool overflow = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  size_t n = size * count;
  Response& response = *transfer->response;
  long status = 0;
  curl_easy_getinfo(transfer->curl, CURLINFO_RESPONSE_CODE, &status);
  // Only a success's body is the caller's data; an error's (S3's XML) goes to Response::body.
  bool into = transfer->into.data() != nullptr && status >= 200 && status < 300;
  if (into) {
    if (response.body_into_size + n > transfer->into.size()) {
      transfer->overflow = true;
      return 0;  // makes curl fail the transfer with CURLE_WRITE_ERROR
    }
    std::memcpy(transfer->into.data() + response.body_into_size, data, n);
    response.body_into_size += n;
    return n;
  }
  response.body.append(data, n);
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {
    transfer->response->headers.clear();  // a new response (after 100 Continue, or a redirect)
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  transfer->response->headers.push_back({AsciiLower(TrimWhitespace(line.substr(0, colon))),
                                         std::string(TrimWhitespace(line.substr(colon + 1)))});
  return n;
}

// The URL without its query, for messages (a query may carry an upload id or a signature).
std::string_view WithoutQuery(std::string_view url) { return url.substr(0, url.find('?')); }

bool IsRetryableTransportError(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view Response::header(std::string_view name) const {
  for (const Header& h : headers) {
    if (h.name == name) return h.value;
  }
  return {};
}

bool IsRetryableStatus(long status) { return status == 429 || (status >= 500 && status <= 599); }

// Idle easy handles, each holding its live connections, handed out one per transfer.
struct Client::Pool {
  std::mutex mutex;
  std::condition_variable freed;
  std::vector<CURL*> idle;
  int created = 0;
  int limit = 1;

  ~Pool() {
    for (CURL* handle : idle) curl_easy_cleanup(handle);
  }

  CURL* Acquire() {
    std::unique_lock lock(mutex);
    freed.wait(lock, [&] { return !idle.empty() || created < limit; });
    if (!idle.empty()) {
      CURL* handle = idle.back();
      idle.pop_back();
      return handle;
    }
    ++created;
    lock.unlock();
    return curl_easy_init();
  }

  void Release(CURL* handle) {
    {
      std::lock_guard lock(mutex);
      if (handle == nullptr) {
        --created;
      } else {
        idle.push_back(handle);
      }
    }
    freed.notify_one();
  }
};

Client::Client(Options options) : options_(options), pool_(std::make_unique<Pool>()) {
  InitCurlOnce();
  pool_->limit = std::max(1, options_.max_connections);
  options_.max_attempts = std::max(1, options_.max_attempts);
}

Client::~Client() = default;

namespace {

// One attempt: the response, or curl's error code with its text.
struct Attempt {
  CURLcode code = CURLE_OK;
  std::string error;
};

Attempt Perform(CURL* curl, const Client::Options& options, const Request& request,
                Response& response) {
  curl_easy_reset(curl);
  char error_buffer[CURL_ERROR_SIZE] = {};
  Transfer transfer{curl, &response, request.body_into, false};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options.connect_timeout_ms));
  // No progress for socket_timeout_ms (at least a second: curl counts in seconds) is a timeout.
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME,
                   std::max(1L, static_cast<long>(options.socket_timeout_ms / 1000)));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);

  if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method != "GET") {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  bool sends_body = request.method == "PUT" || request.method == "POST";
  if (sends_body) {
    // POSTFIELDS sends the bytes as they are, with a Content-Length, for any method.
    static const char kEmpty[] = "";
    const char* data =
        request.body.empty() ? kEmpty : reinterpret_cast<const char*>(request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, data);
  }

  curl_slist* headers = nullptr;
  bool has_content_type = false;
  for (const Header& h : request.headers) {
    if (EqualsIgnoreCase(h.name, "content-type")) has_content_type = true;
    std::string line = h.value.empty() ? h.name + ";" : h.name + ": " + h.value;
    headers = curl_slist_append(headers, line.c_str());
  }
  // No "Expect: 100-continue" round trip, and no form content type curl would invent.
  headers = curl_slist_append(headers, "Expect:");
  if (sends_body && !has_content_type) headers = curl_slist_append(headers, "Content-Type:");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

  CURLcode code = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  Attempt attempt;
  attempt.code = code;
  if (code != CURLE_OK) {
    attempt.error = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
    if (transfer.overflow) {
      attempt.error = fmt::format("the response body is longer than the {} bytes expected",
                                  request.body_into.size());
    }
    return attempt;
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return attempt;
}

void Backoff(const Client::Options& options, int attempt) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  int64_t cap = options.backoff_base_ms << std::min(attempt - 1, 20);
  cap = std::min(cap, options.backoff_max_ms);
  if (cap <= 0) return;
  std::uniform_int_distribution<int64_t> jitter(0, cap);
  std::this_thread::sleep_for(std::chrono::milliseconds(jitter(random)));
}

}  // namespace

Result<Response> Client::Send(const Request& request, const Prepare& prepare) {
  int unanswered = 0;
  for (int attempt = 1;; ++attempt) {
    Request sent = request;
    if (prepare) FLOE_RETURN_IF_ERROR(prepare(sent));
    Response response;
    response.attempts = attempt;
    response.unanswered_attempts = unanswered;
    CURL* curl = pool_->Acquire();
    if (curl == nullptr) {
      pool_->Release(nullptr);
      return IOError("{} {}: could not create a curl handle", request.method,
                     WithoutQuery(request.url));
    }
    Attempt result = Perform(curl, options_, sent, response);
    pool_->Release(curl);
    bool out_of_attempts = attempt >= options_.max_attempts;
    if (result.code != CURLE_OK) {
      // A connection never made sent nothing, so even a non-idempotent request may be retried.
      bool may_retry = request.idempotent || result.code == CURLE_COULDNT_CONNECT;
      if (out_of_attempts || !may_retry || !IsRetryableTransportError(result.code)) {
        return IOError("{} {}: {} (after {} attempt{})", request.method, WithoutQuery(request.url),
                       result.error, attempt, attempt == 1 ? "" : "s");
      }
      if (result.code != CURLE_COULDNT_CONNECT) ++unanswered;
    } else {
      bool transient = request.idempotent && IsRetryableStatus(response.status);
      bool throttled = request.throttled && request.throttled(response);
      if (out_of_attempts || !(transient || throttled)) return response;
    }
    Backoff(options_, attempt);
  }
}

}  // namespace floe::io::http
