#pragma once

// floe's errors in the REST catalog's terms and back (the OpenAPI document's responses): the
// server answers an Error with the status and exception type clients of every engine understand;
// the client turns a status and ErrorModel back into the Error kind the Catalog interface
// promises.
//
// The client's rules for a commit (POST of a table or a transaction): 409 is a retryable
// kCommitFailed; 500, 502, 503 and 504 and a failed transfer are kCommitStateUnknown, because the
// commit may have landed (files must then stay).

#include <string_view>

#include "floe/catalog/rest/rest_messages.h"
#include "floe/util/error.h"

namespace floe::catalog::rest {

// What the request was about, which decides between exception types of one status.
enum class Subject : unsigned char { kNamespace, kTable, kOther };

// The ErrorModel the server sends for error.
ErrorModel ErrorToModel(const Error& error, Subject subject);

// The Error for a response that is not 2xx: status and model as received (model.type empty
// when the body was no ErrorModel). `what` names the request ("load table db.t").
Error ModelToError(long status, const ErrorModel& model, std::string_view what, bool is_commit);

}  // namespace floe::catalog::rest
