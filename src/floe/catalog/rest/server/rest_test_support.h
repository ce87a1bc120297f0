#pragma once

// For tests that need a REST catalog to talk to: floe's server, in the test's process, on a free
// loopback port.

#include <memory>
#include <string>

#include "floe/catalog/caching_catalog.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/rest/server/rest_server.h"

namespace floe::catalog::rest::testing {

// The catalog `properties` make (its cache off, so that a load sees every commit of other
// processes), served with table_config in every LoadTableResult's config; staged tables go under
// its warehouse, as created ones do.
inline Result<std::unique_ptr<RestServer>> ServeCatalog(StringMap properties,
                                                        StringMap table_config = {}) {
  properties[std::string(kCacheEnabledProperty)] = "false";
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<Catalog> served, CreateCatalog("served", properties));
  auto service = std::make_shared<const RestService>(std::move(served), properties["warehouse"],
                                                     std::move(table_config));
  return RestServer::Start(std::move(service), {.port = 0});
}

}  // namespace floe::catalog::rest::testing
