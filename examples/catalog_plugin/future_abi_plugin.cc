// A test fixture: a plugin built against a later ABI than this floe speaks, to check that floe
// refuses it with a clear message instead of calling into a table it does not understand.

#include "floe/catalog/plugin/floe_catalog_plugin.h"

namespace {

const floe_catalog_plugin kPlugin = {FLOE_CATALOG_PLUGIN_ABI_VERSION + 1,
                                     sizeof(floe_catalog_plugin)};

}  // namespace

extern "C" __attribute__((visibility("default"))) const floe_catalog_plugin* floe_catalog_plugin_v1(
    uint32_t) {
  return &kPlugin;
}
