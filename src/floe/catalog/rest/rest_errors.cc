#include "floe/catalog/rest/rest_errors.h"

#include <fmt/format.h>

namespace floe::catalog::rest {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// A kNotFound on a table request may be about its namespace: the catalogs' messages say which.
bool IsAboutNamespace(const Error& error, Subject subject) {
  return subject == Subject::kNamespace || StartsWith(error.message(), "namespace");
}

}  // namespace

ErrorModel ErrorToModel(const Error& error, Subject subject) {
  ErrorModel model;
  model.message = error.message();
  switch (error.kind()) {
    case ErrorKind::kNotFound:
      model.code = 404;
      model.type =
          IsAboutNamespace(error, subject) ? "NoSuchNamespaceException" : "NoSuchTableException";
      break;
    case ErrorKind::kAlreadyExists:
      model.code = 409;
      model.type = "AlreadyExistsException";
      break;
    case ErrorKind::kCommitFailed:
      model.code = 409;
      model.type = "CommitFailedException";
      break;
    case ErrorKind::kCommitStateUnknown:
      model.code = 500;
      model.type = "CommitStateUnknownException";
      break;
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kCorruptData:
      model.code = 400;
      model.type = "BadRequestException";
      break;
    case ErrorKind::kUnsupported:
      model.code = 406;
      model.type = "UnsupportedOperationException";
      break;
    default:
      model.code = 500;
      model.type = "ServiceFailureException";
      break;
  }
  return model;
}

Error ModelToError(long status, const ErrorModel& model, std::string_view what, bool is_commit) {
  std::string message =
      fmt::format("{}: HTTP {}{}{}{}", what, status, model.type.empty() ? "" : " ", model.type,
                  model.message.empty() ? "" : ": " + model.message);
  if (is_commit && (status == 500 || status == 502 || status == 503 || status == 504)) {
    return Error(ErrorKind::kCommitStateUnknown,
                 message + " (the commit may or may not have been applied)");
  }
  switch (status) {
    case 400:
    case 422:
      return Error(ErrorKind::kInvalidArgument, std::move(message));
    case 401:
    case 403:
    case 419:
      return Error(ErrorKind::kInvalidArgument, message + " (not authorized)");
    case 404:
      return Error(ErrorKind::kNotFound, std::move(message));
    case 406:
    case 501:
      return Error(ErrorKind::kUnsupported, std::move(message));
    case 409:
      if (model.type == "AlreadyExistsException") {
        return Error(ErrorKind::kAlreadyExists, std::move(message));
      }
      if (model.type == "NamespaceNotEmptyException") {
        return Error(ErrorKind::kInvalidArgument, std::move(message));
      }
      return Error(ErrorKind::kCommitFailed, std::move(message), /*retryable=*/true);
    default:
      return Error(ErrorKind::kIO, std::move(message));
  }
}

}  // namespace floe::catalog::rest
