#include "floe/util/error.h"

namespace floe {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return "invalid argument";
    case ErrorKind::kNotFound: return "not found";
    case ErrorKind::kAlreadyExists: return "already exists";
    case ErrorKind::kCommitFailed: return "commit failed";
    case ErrorKind::kCommitStateUnknown: return "commit state unknown";
    case ErrorKind::kIO: return "I/O error";
    case ErrorKind::kCorruptData: return "corrupt data";
    case ErrorKind::kUnsupported: return "unsupported";
    case ErrorKind::kInternal: return "internal error";
    case ErrorKind::kCancelled: return "cancelled";
    case ErrorKind::kResourceExhausted: return "resource exhausted";
  }
  return "unknown error";
}

Error& Error::AddContext(std::string_view context) {
  message_ = fmt::format("{}: {}", context, message_);
  return *this;
}

std::string Error::ToString() const { return fmt::format("{}: {}", ErrorKindName(kind_), message_); }

}  // namespace floe
