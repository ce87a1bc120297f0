#pragma once

// The REST catalog protocol over any floe Catalog, without HTTP: a request (method, path below
// the server's root, query parameters, body) in, a status and JSON body out. rest_server.h puts
// it on a socket; tests may call it directly.
//
// Served (paths of the OpenAPI document, with no prefix): GET /v1/config; namespaces: list
// (`parent`, `pageToken`, `pageSize`), create, load, HEAD, properties update, drop; tables: list
// (paginated), create (and `stage-create`), load (with an ETag of the metadata location, and 304
// Not Modified for a matching If-None-Match), HEAD, commit (requirements checked by the
// catalog against the current metadata), drop (`purgeRequested`), register; POST
// /v1/tables/rename and /v1/transactions/commit (all or nothing where the catalog commits several
// tables atomically, see multi_table_commit.h; otherwise one change at a time is refused with
// 406 for more than one table).
//
// Every error is an IcebergErrorResponse with the status the document gives its kind
// (rest_errors.h). Thread-safe when the catalog is.

#include <map>
#include <memory>
#include <string>

#include "floe/catalog/catalog.h"
#include "floe/util/lru_cache.h"

namespace floe::catalog::rest {

struct ServiceRequest {
  std::string method;  // "GET", "HEAD", "POST", "DELETE"
  std::string path;    // decoded: "/v1/namespaces/a\x1F" "b/tables/t"
  std::multimap<std::string, std::string> query;
  std::string body;
  std::string if_none_match;  // the If-None-Match header, "" when absent
};

struct ServiceResponse {
  int status = 200;
  std::string body;  // JSON; empty for 204, 304 and HEAD
  std::string etag;  // the ETag header of a loaded table, "" for none
};

class RestService {
 public:
  // warehouse: where staged tables are placed (`<warehouse>/<ns>/<table>`), as the catalog
  // places created ones; table_config: what every LoadTableResult's `config` carries (the
  // storage settings a client needs to reach the files, e.g. s3.endpoint, vended
  // with a trailing '/').
  RestService(std::shared_ptr<Catalog> catalog, std::string warehouse, StringMap table_config);

  ServiceResponse Handle(const ServiceRequest& request) const;

 private:
  std::shared_ptr<Catalog> catalog_;
  std::string warehouse_;
  StringMap table_config_;
  // The LoadTableResult bodies of the last loads, by metadata location: a metadata file never
  // changes, so neither does the body made from it (with this service's table_config).
  static constexpr size_t kLoadBodyCacheSize = 64;
  mutable LruCache<std::string, std::string> load_bodies_{kLoadBodyCacheSize};
};

// The namespace of a path segment: levels separated by the unit separator 0x1F.
Result<Namespace> NamespaceFromPathSegment(std::string_view segment);

}  // namespace floe::catalog::rest
