#pragma once

// Errors as values. Every fallible function returns Result<T> (a value or an Error) or Status (nothing
// or an Error); no exception crosses a layer boundary. An Error carries a kind that callers may branch
// on, a message that says what went wrong and where (file, field, offset), and a retryable bit that
// commit loops use to tell a lost optimistic-concurrency race from a real failure.

#include <expected>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/core.h>

namespace floe {

enum class ErrorKind : unsigned char {
  kInvalidArgument,     // the caller passed something malformed or out of range
  kNotFound,            // a table, file, field, snapshot... does not exist
  kAlreadyExists,       // creating something that is already there
  kCommitFailed,        // a commit lost a race or its requirements no longer hold
  kCommitStateUnknown,  // a commit may or may not have landed: never clean up after it
  kIO,                  // the operating system refused a read, write, rename...
  kCorruptData,         // bytes on disk do not decode as the format says they must
  kUnsupported,         // valid, but not something floe does (yet)
  kInternal,            // a broken invariant inside floe: a bug
  kCancelled,           // the operation was asked to stop
  kResourceExhausted,   // a limit (memory, size, count) was reached
};

std::string_view ErrorKindName(ErrorKind kind);

class Error {
 public:
  Error(ErrorKind kind, std::string message, bool retryable = false)
      : kind_(kind), retryable_(retryable), message_(std::move(message)) {}

  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  bool retryable() const { return retryable_; }

  // Prefixes the message with where the error happened, e.g. the file being read:
  //   "reading s3://b/t/m.avro: block 3: bad sync marker at offset 8123".
  Error& AddContext(std::string_view context);
  Error& SetRetryable(bool retryable = true) {
    retryable_ = retryable;
    return *this;
  }

  // "<kind>: <message>", for logs and command-line output.
  std::string ToString() const;

 private:
  ErrorKind kind_;
  bool retryable_;
  std::string message_;
};

template <typename T>
using Result = std::expected<T, Error>;
using Status = Result<void>;

inline Status Ok() { return {}; }

// Constructors for each kind, with fmt-style formatting:
//   return InvalidArgument("unknown transform '{}' for field {}", name, id);
#define FLOE_DEFINE_ERROR_FACTORY(Name, Kind)                                           \
  template <typename... Args>                                                           \
  std::unexpected<Error> Name(fmt::format_string<Args...> format, Args&&... args) {     \
    return std::unexpected<Error>(                                                      \
        Error(ErrorKind::Kind, fmt::format(format, std::forward<Args>(args)...)));      \
  }
FLOE_DEFINE_ERROR_FACTORY(InvalidArgument, kInvalidArgument)
FLOE_DEFINE_ERROR_FACTORY(NotFound, kNotFound)
FLOE_DEFINE_ERROR_FACTORY(AlreadyExists, kAlreadyExists)
FLOE_DEFINE_ERROR_FACTORY(CommitFailed, kCommitFailed)
FLOE_DEFINE_ERROR_FACTORY(CommitStateUnknown, kCommitStateUnknown)
FLOE_DEFINE_ERROR_FACTORY(IOError, kIO)
FLOE_DEFINE_ERROR_FACTORY(CorruptData, kCorruptData)
FLOE_DEFINE_ERROR_FACTORY(Unsupported, kUnsupported)
FLOE_DEFINE_ERROR_FACTORY(InternalError, kInternal)
FLOE_DEFINE_ERROR_FACTORY(Cancelled, kCancelled)
FLOE_DEFINE_ERROR_FACTORY(ResourceExhausted, kResourceExhausted)
#undef FLOE_DEFINE_ERROR_FACTORY

}  // namespace floe

#define FLOE_CONCAT_IMPL(a, b) a##b
#define FLOE_CONCAT(a, b) FLOE_CONCAT_IMPL(a, b)

// Returns the error of a Status or Result expression from the enclosing function.
#define FLOE_RETURN_IF_ERROR(expr)                                            \
  do {                                                                        \
    auto&& floe_status_ = (expr);                                             \
    if (!floe_status_) return std::unexpected(std::move(floe_status_).error()); \
  } while (false)

// FLOE_ASSIGN_OR_RETURN(auto x, ComputeX()); declares or assigns lhs from a Result's value, or returns
// its error.
#define FLOE_ASSIGN_OR_RETURN(lhs, expr) \
  FLOE_ASSIGN_OR_RETURN_IMPL(FLOE_CONCAT(floe_result_, __LINE__), lhs, expr)
#define FLOE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)            \
  auto tmp = (expr);                                          \
  if (!tmp) return std::unexpected(std::move(tmp).error());   \
  lhs = std::move(tmp).value()

// Like FLOE_RETURN_IF_ERROR, adding context to the error first: FLOE_RETURN_IF_ERROR_CTX(Read(), "footer")
#define FLOE_RETURN_IF_ERROR_CTX(expr, context)                                  \
  do {                                                                           \
    auto&& floe_status_ = (expr);                                                \
    if (!floe_status_) {                                                         \
      return std::unexpected(std::move(floe_status_.error().AddContext(context))); \
    }                                                                            \
  } while (false)
