#pragma once

// The transport of the Glue catalog (glue_catalog.h): one Glue operation as AWS's JSON protocol
// sends it, a POST of a JSON body to the endpoint's root with `X-Amz-Target: AWSGlue.<Operation>`
// and `Content-Type: application/x-amz-json-1.1`, signed with SigV4 for the service `glue`, on
// the one HTTP client (io/http/). Only idempotent operations (the Get* reads) are retried on
// transient failures; a write is sent once, since a second send of a write that landed would
// look like a conflict. Any operation Glue refuses with ThrottlingException (HTTP 400: it was not
// performed) is sent again after the client's backoff, up to its attempts.
//
// Errors: a refusal is mapped from its Glue error type (the body's `__type`, or the
// x-amzn-ErrorType header): EntityNotFoundException kNotFound, AlreadyExistsException
// kAlreadyExists, ConcurrentModificationException a retryable kCommitFailed,
// InvalidInputException and ValidationException kInvalidArgument, others (AccessDenied, 5xx...)
// kIO. The message names the operation, the error type and Glue's message:
// "Glue UpdateTable: ConcurrentModificationException: ...". A transport failure is kIO.
// Thread-safe.

#include <string>
#include <string_view>

#include "floe/catalog/catalog.h"
#include "floe/io/http/http_client.h"
#include "floe/io/http/sigv4.h"
#include "floe/util/json.h"

namespace floe::catalog::glue {

struct GlueClientOptions {
  std::string endpoint;                  // "https://glue.us-east-1.amazonaws.com", no trailing '/'
  std::string region;                    // the SigV4 scope's region
  std::string catalog_id;                // sent as CatalogId when not empty (glue.id)
  io::http::AwsCredentials credentials;  // no access key id: requests go unsigned
  io::http::Client::Options http;
};

// The client options from catalog properties: glue.endpoint (default
// https://glue.<region>.amazonaws.com), glue.id, client.region, and the credentials exactly as
// the S3 FileIO finds them (s3.access-key-id..., the AWS environment, the profile files:
// io/s3/s3_options.h).
Result<GlueClientOptions> GlueClientOptionsFrom(const StringMap& properties);

class GlueClient {
 public:
  explicit GlueClient(GlueClientOptions options);

  // Sends operation ("GetTable") with request, an object to which CatalogId is added; returns the
  // response body (an empty object for an empty body).
  Result<Json> Call(std::string_view operation, Json request, bool idempotent);

  const std::string& endpoint() const { return options_.endpoint; }

 private:
  GlueClientOptions options_;
  io::http::Client http_;
};

// The ErrorKind a Glue error type means (the part after any '#' prefix).
Error GlueError(std::string_view operation, std::string_view type, std::string_view message);

}  // namespace floe::catalog::glue
