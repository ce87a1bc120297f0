#pragma once

// `floe inspect manifest FILE.avro`: prints an Iceberg manifest or manifest list in readable form.

namespace CLI {
class App;
}

namespace floe::cli {

void AddInspectManifest(CLI::App& inspect, int& exit_code);

}  // namespace floe::cli
