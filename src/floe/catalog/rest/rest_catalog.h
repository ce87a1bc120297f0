#pragma once

// The REST catalog client (`catalog-type`='rest'): every Catalog operation as a request to a
// server speaking the Iceberg REST protocol (the OpenAPI document in
// ../shared/testdata/iceberg-java/open-api), floe's own `floe serve` or any other.
//
// Properties:
//   uri                   the server's base URI ("http://127.0.0.1:8181"; a trailing /v1 is
//                         dropped)
//   warehouse             sent to GET /v1/config, which answers with the catalog's settings
//   prefix                the path part after /v1/ (usually set by the server's config)
//   credential            client_id:client_secret for OAuth2 client credentials, at
//                         oauth2-server-uri (default <uri>/v1/oauth/tokens), with `scope`
//                         (default "catalog"); the token is fetched again before it expires and
//                         when the server answers 401 or 419
//   token                 a bearer token to send as it is
//   header.NAME           an extra header on every request
//   rest.page-size        asks for lists in pages of this many (the server may ignore it)
// The merge of GET /v1/config: its defaults, then these properties, then its overrides. The
// merged properties configure the catalog's FileIO (s3.* as for every catalog, docs/s3.md), and a
// loaded table's `config` and `storage-credentials` that table's files.
//
// Errors follow rest_errors.h: 404 kNotFound, 409 kAlreadyExists or a retryable kCommitFailed,
// 5xx and transport failures on commits kCommitStateUnknown (files must then stay), others name
// the HTTP status, the exception type and the server's message.

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

Result<std::shared_ptr<Catalog>> CreateRestCatalog(const std::string& name,
                                                   const StringMap& properties);

}  // namespace floe::catalog
