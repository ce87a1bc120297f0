#include "floe/table/write/metrics_config.h"

#include <charconv>

namespace floe::table {
namespace {

constexpr std::string_view kDefaultKey = "write.metadata.metrics.default";
constexpr std::string_view kColumnPrefix = "write.metadata.metrics.column.";
constexpr std::string_view kMaxInferredKey = "write.metadata.metrics.max-inferred-column-defaults";
constexpr int32_t kMaxInferredDefault = 100;
constexpr int32_t kPositionDeleteFilePathId = 2147483546;
constexpr int32_t kPositionDeletePosId = 2147483545;

const MetricsMode kTruncate16{MetricsMode::Kind::kTruncate, 16};

void CollectIds(const NestedField& field, std::vector<int32_t>& ids) {
  ids.push_back(field.id);
  switch (field.type->id()) {
    case TypeId::kStruct:
      for (const NestedField& child : static_cast<const StructType&>(*field.type).fields()) {
        CollectIds(child, ids);
      }
      break;
    case TypeId::kList:
      CollectIds(static_cast<const ListType&>(*field.type).element(), ids);
      break;
    case TypeId::kMap:
      CollectIds(static_cast<const MapType&>(*field.type).key(), ids);
      CollectIds(static_cast<const MapType&>(*field.type).value(), ids);
      break;
    default:
      break;
  }
}

Result<MetricsMode> ParseProperty(std::string_view key, const std::string& value) {
  auto mode = parquet::ParseMetricsMode(value);
  if (!mode) return InvalidArgument("property {}: {}", key, mode.error().message());
  return *mode;
}

}  // namespace

Result<MetricsConfig> MetricsConfig::Make(const std::map<std::string, std::string>& properties,
                                          const Schema& schema, const SortOrder* sort_order) {
  MetricsConfig config;
  int32_t max_inferred = kMaxInferredDefault;
  if (auto it = properties.find(std::string(kMaxInferredKey)); it != properties.end()) {
    const std::string& text = it->second;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), max_inferred);
    if (ec != std::errc() || end != text.data() + text.size() || max_inferred < 0) {
      return InvalidArgument("property {}: '{}' is not an integer >= 0", kMaxInferredKey, text);
    }
  }
  if (auto it = properties.find(std::string(kDefaultKey)); it != properties.end()) {
    FLOE_ASSIGN_OR_RETURN(config.default_mode_, ParseProperty(kDefaultKey, it->second));
  } else if (static_cast<int64_t>(schema.fields().size()) > max_inferred) {
    std::vector<int32_t> ids;
    for (size_t i = 0; i < static_cast<size_t>(max_inferred); ++i) {
      CollectIds(schema.fields()[i], ids);
    }
    for (int32_t id : ids) config.column_modes_[id] = kTruncate16;
    config.default_mode_ = MetricsMode{MetricsMode::Kind::kNone, 0};
  }
  if (sort_order != nullptr) {
    const bool weak = config.default_mode_.kind == MetricsMode::Kind::kNone ||
                      config.default_mode_.kind == MetricsMode::Kind::kCounts;
    for (const SortField& field : sort_order->fields()) {
      if (!field.transform.PreservesOrder()) continue;
      config.column_modes_[field.source_id()] = weak ? kTruncate16 : config.default_mode_;
    }
  }
  for (const auto& [key, value] : properties) {
    if (!key.starts_with(kColumnPrefix)) continue;
    const std::string name = key.substr(kColumnPrefix.size());
    const NestedField* field = schema.FindField(name);
    if (field == nullptr) {
      return InvalidArgument("property {}: no column '{}' in the table schema", key, name);
    }
    FLOE_ASSIGN_OR_RETURN(config.column_modes_[field->id], ParseProperty(key, value));
  }
  return config;
}

MetricsConfig MetricsConfig::ForPositionDeletes() const {
  MetricsConfig config = *this;
  const MetricsMode full{MetricsMode::Kind::kFull, 0};
  config.column_modes_[kPositionDeleteFilePathId] = full;
  config.column_modes_[kPositionDeletePosId] = full;
  return config;
}

MetricsMode MetricsConfig::ModeFor(int32_t field_id) const {
  auto it = column_modes_.find(field_id);
  return it == column_modes_.end() ? default_mode_ : it->second;
}

void MetricsConfig::ApplyTo(parquet::WriterOptions& options) const {
  options.default_metrics = default_mode_;
  options.field_metrics.clear();
  for (const auto& [id, mode] : column_modes_) options.field_metrics[id] = mode;
}

}  // namespace floe::table
